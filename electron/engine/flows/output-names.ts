import { basename, dirname, join, parse } from 'node:path';
import type { OutputType } from '../../../shared/api/common';
import type { JobRow, JobStore, OutputRow } from '../db/jobs';
import { KeyLock } from '../outputs/key-lock';
import { PER_SOURCE_OUTPUTS, freeName, freeVariant, outputPath, withVariant } from '../outputs/naming';
import { USUAL_FORMAT } from '../outputs/sniff';
import type { OutputRecords } from './output-records';

/** One job at a time picks names in a folder (see `claimOwnNames`). */
const naming = new KeyLock();

/** The names a job's outputs take in its folder: free ones, paired, and recorded as soon as picked. */
export class OutputNames {
  /** The names this job holds or is about to. */
  readonly planned: Set<string>;
  /**
   * One name variant for all of the job's own files, so media and subtitles pair (see freeVariant). Not the
   * outputs shared by the source's languages: another language may be fetching them right now.
   */
  private variant: Promise<number> | undefined;
  private readonly ownTypes: OutputType[];

  constructor(
    private readonly store: JobStore,
    private readonly r: JobRow,
    private readonly stem: string,
    private readonly wanted: readonly OutputType[],
    existing: ReadonlyMap<string, OutputRow>,
    private readonly records: OutputRecords,
  ) {
    this.planned = new Set([...existing.values()].map((o) => o.path));
    this.ownTypes = wanted.filter((t) => !PER_SOURCE_OUTPUTS.has(t));
  }

  /** Where an output of `type` in format `ext` goes, before any variant. */
  place(type: OutputType, ext: string): string {
    return join(
      this.r.out_dir,
      outputPath(this.r.naming, this.stem, this.r.dest_lang, type, ext, this.wanted),
    );
  }

  /**
   * Picks the variant and claims all of the job's own names at once, recorded before the folder's lock is
   * let go: a job of a same-stem source (`talk.mkv`, `talk.mp3`) downloading at the same moment then sees
   * them, where the disk shows nothing until a download begins.
   */
  claimOwnNames(): Promise<number> {
    return (this.variant ??= naming.run(this.r.out_dir, () => this.claimVariant()));
  }

  /** A free name for an output of `type` near `wantedPath`, planned and recorded (nothing downloaded yet). */
  async pick(
    type: OutputType,
    wantedPath: string,
    mine = (p: string) => this.planned.has(p),
  ): Promise<string> {
    const path = await this.freeFor(wantedPath, type, mine);
    this.planned.add(path);
    this.records.put({ job_id: this.r.id, type, path, bytes: null, done: 0 });
    return path;
  }

  /** A name nobody has for `wantedPath`, in the job's variant for its own outputs. */
  async freeFor(wantedPath: string, type: OutputType, mine: (p: string) => boolean): Promise<string> {
    const from = PER_SOURCE_OUTPUTS.has(type) ? 1 : await this.claimOwnNames();
    return freeName(dirname(wantedPath), parse(wantedPath).base, mine, from);
  }

  private async claimVariant(): Promise<number> {
    const n = await freeVariant(
      this.ownTypes.map((t) => this.place(t, USUAL_FORMAT[t])),
      (p) => this.planned.has(p),
      (p) => this.store.outputs.claimedByAnother(p, this.r.id),
    );
    const claimed: OutputRow[] = [];
    for (const t of this.ownTypes) {
      if (this.records.known.has(t)) continue;
      const usual = this.place(t, USUAL_FORMAT[t]);
      const p = join(dirname(usual), withVariant(basename(usual), n));
      this.planned.add(p);
      claimed.push({ job_id: this.r.id, type: t, path: p, bytes: null, done: 0 });
    }
    this.records.putAll(claimed);
    return n;
  }
}
