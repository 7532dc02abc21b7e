import type { Db } from '../types';
import { LinkedJob } from './rows';

/** Which jobs each watched file queued, and the credits and jobs a folder counts on. */
export class WatchLinks {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      link: db.prepare(`INSERT OR IGNORE INTO watch_file_jobs (file_id, job_id, own) VALUES (?, ?, ?)`),
      unlink: db.prepare(`DELETE FROM watch_file_jobs WHERE file_id = ?`),
      linked: db.prepare(`
        SELECT l.file_id, l.job_id, l.own, j.dest_lang, j.state
        FROM watch_file_jobs l JOIN jobs j ON j.id = l.job_id
        WHERE l.file_id IN (SELECT value FROM json_each(?)) ORDER BY l.job_id`),
      owner: db.prepare(
        `SELECT file_id FROM watch_file_jobs WHERE job_id = ? AND own = 1 ORDER BY file_id LIMIT 1`,
      ),
      jobIds: db.prepare(
        `SELECT file_id, job_id FROM watch_file_jobs WHERE file_id IN (SELECT value FROM json_each(?))
           ORDER BY job_id`,
      ),
      // Each file at the larger of its estimate and what the service charged for its own jobs: a file
      // whose headers lie is estimated low, and charged for what it holds.
      windowCredits: db.prepare(
        `SELECT coalesce(sum(max(coalesce(f.credits, 0), coalesce((SELECT sum(j.credits_charged)
             FROM watch_file_jobs l JOIN jobs j ON j.id = l.job_id WHERE l.file_id = f.id AND l.own = 1), 0))), 0) AS n
           FROM watch_files f
           WHERE f.folder_id = ? AND f.status = 'taken' AND f.approved = 0 AND f.forced = 0 AND f.taken_at > ?`,
      ),
      awaiting: db.prepare(
        `SELECT count(*) AS n, coalesce(sum(credits), 0) AS credits,
             coalesce(sum(credits IS NULL), 0) AS unknown FROM watch_files
           WHERE folder_id = ? AND status = 'awaiting-approval'`,
      ),
      jobSignature: db.prepare(
        `SELECT count(*) AS n, coalesce(max(updated_at), 0) AS at FROM jobs WHERE watch_folder_id = ?`,
      ),
    };
  }

  link(fileId: number, jobId: number, own: boolean): void {
    this.q.link.run(fileId, jobId, own ? 1 : 0);
  }

  unlinkAll(fileId: number): void {
    this.q.unlink.run(fileId);
  }

  /** The jobs linked to these files that are still in the queue. */
  linkedJobs(fileIds: readonly number[]): LinkedJob[] {
    if (fileIds.length === 0) return [];
    return this.q.linked.all(JSON.stringify(fileIds)).map((r) => LinkedJob.parse(r));
  }

  /** The watched file that queued this job; null for a job added by hand. */
  ownerOf(jobId: number): number | null {
    const r = this.q.owner.get(jobId) as { file_id: number } | undefined;
    return r?.file_id ?? null;
  }

  jobIdsOf(fileIds: readonly number[]): Map<number, number[]> {
    const out = new Map<number, number[]>();
    if (fileIds.length === 0) return out;
    for (const r of this.q.jobIds.all(JSON.stringify(fileIds)) as { file_id: number; job_id: number }[]) {
      const list = out.get(r.file_id);
      if (list) list.push(r.job_id);
      else out.set(r.file_id, [r.job_id]);
    }
    return out;
  }

  /**
   * Credits the folder queued by itself (not approved, not forced) since `since`: each file's estimate, or
   * what the service charged for it when that is more.
   */
  creditsSince(folderId: number, since: number): number {
    return (this.q.windowCredits.get(folderId, since) as { n: number }).n;
  }

  /** Files awaiting approval, what they would cost, and how many of them do not say their length. */
  awaiting(folderId: number): { files: number; credits: number; unknownLength: number } {
    const r = this.q.awaiting.get(folderId) as { n: number; credits: number; unknown: number };
    return { files: r.n, credits: r.credits, unknownLength: r.unknown };
  }

  /** Changes when any job of the folder changes: the watching process looks closer only then. */
  jobSignature(folderId: number): string {
    const r = this.q.jobSignature.get(folderId) as { n: number; at: number };
    return `${r.n}:${r.at}`;
  }
}
