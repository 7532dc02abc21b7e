import { rename, rm, stat } from 'node:fs/promises';
import { dirname, extname, parse } from 'node:path';
import type { OutputType } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import type { Downloaded } from '../api/download';
import { ApiError } from '../api/errors';
import type { OutputRow } from '../db/jobs';
import { holdPoint } from '../files/hold-point';
import { makeFolder } from '../files/make-folder';
import { NameTakenError } from '../files/own-file';
import { KeyLock } from '../outputs/key-lock';
import { PER_SOURCE_OUTPUTS, alreadySettled, sanitizeName, settleWritten } from '../outputs/naming';
import { jobStem } from '../outputs/result-stem';
import { USUAL_FORMAT } from '../outputs/sniff';
import type { LeasedJob, StepContext } from './context';
import { identicalOutput, local, outputByteCap, sameBytesAt, sourceOutputs } from './output-files';
import { rebuildStep, type RebuildSlot } from './audio/rebuild-step';
import { OutputNames } from './output-names';
import { OutputRecords } from './output-records';
import { sniffedPart } from './sniffed-part';

/** Fresh links after an expired one: at most this many times per output and attempt. */
const MAX_LINK_REFRESHES = 3;
/** Names found taken by an entry planted at their part (see files/own-file): another name, this many times. */
const MAX_TAKEN_NAMES = 3;
/** The languages of one source take turns at the outputs they share (see KeyLock). */
const sharedOutputs = new KeyLock();

/** A dub the service completed, by the id the job knows it by. */
export interface CompletedDub {
  remoteId: string;
  dub: DubV2;
}

/** Where an output is being downloaded: its name, and whether that name was picked just now (no part yet). */
interface Target {
  path: string;
  fresh: boolean;
}

/**
 * The download of one completed dub's outputs for its job, one after the other: a name for each, the bytes
 * into its `.part` (fresh links when they expire), the format checked, then moved to its name.
 */
export class OutputFetch {
  private readonly records: OutputRecords;
  private readonly names: OutputNames;
  /** A download resumes from its part file: the first Ctrl+C (the drain) stops it at once, losing nothing. */
  private readonly transferSignal: AbortSignal;
  private readonly remoteId: string;
  /** The dub, with fresh links once the ones it came with expired. */
  private dub: DubV2;
  /** A step of the download ran: the next one checks first whether the job or the run is to stop. */
  private started = false;

  constructor(
    private readonly ctx: StepContext,
    private readonly job: LeasedJob,
    { remoteId, dub }: CompletedDub,
    private readonly wanted: readonly OutputType[],
    private readonly existing: ReadonlyMap<string, OutputRow>,
  ) {
    const r = job.row;
    this.remoteId = remoteId;
    this.dub = dub;
    const stem = jobStem(
      r.source_kind === 'file' ? parse(r.source_name).name : sanitizeName(parse(dub.name).name),
      r.audio_track,
    );
    this.records = new OutputRecords(ctx.store, existing);
    this.names = new OutputNames(ctx.store, r, stem, wanted, existing, this.records);
    this.transferSignal = ctx.drain ? AbortSignal.any([ctx.signal, ctx.drain]) : ctx.signal;
  }

  /**
   * Every output of `download` (by default every wanted one) not on disk yet, stopping between two of them
   * if the job or the run is to stop.
   */
  async all(download: readonly OutputType[] = this.wanted): Promise<void> {
    const r = this.job.row;
    try {
      for (const type of download) {
        if (this.started) this.job.checkpoint();
        this.started = true;
        const before = this.existing.get(type);
        if (before?.done) continue;
        if (before && before.bytes !== null && (await alreadySettled(before.path, before.bytes))) {
          // A crash hit between moving the file and recording it: it is recorded now, as a result too.
          this.records.put({ ...before, done: 1 }, await this.ctx.store.results.lookAtResult(before.path));
          continue;
        }
        if (PER_SOURCE_OUTPUTS.has(type))
          await sharedOutputs.run(`${r.source}\0${r.out_dir}\0${type}`, () => this.one(type, before, true));
        else await this.one(type, before, false);
      }
    } catch (e) {
      // A later output failed: what was moved into place is recorded as done all the same.
      this.records.flush();
      // A file gone between two steps of a download: its folder was moved or deleted meanwhile.
      throw (e as NodeJS.ErrnoException)?.code === 'ENOENT' ? local(e, r.out_dir, null) : e;
    }
  }

  /**
   * The audio path's dubbed video, made here after the outputs fetched (see audio/rebuild-step), under the
   * name claimed for the job's `translated_mp4`.
   */
  async rebuild(): Promise<void> {
    if (this.started) this.job.checkpoint();
    this.started = true;
    try {
      await rebuildStep(this.ctx, this.job, this.dub, this.rebuildSlot(), this.transferSignal);
    } catch (e) {
      this.records.flush();
      throw e;
    }
  }

  private rebuildSlot(): RebuildSlot {
    const video = 'translated_mp4';
    const id = this.job.row.id;
    return {
      claimed: async () => {
        await this.names.claimOwnNames();
        return this.records.known.get(video)?.path ?? this.names.place(video, 'mp4');
      },
      renamed: async (ext) => {
        const mine = this.records.known.get(video)?.path;
        if (mine?.endsWith(`.${ext}`)) return mine;
        return this.names.pick(
          video,
          this.names.place(video, ext),
          (p) => this.names.planned.has(p) && p !== mine,
        );
      },
      plain: (ext) => this.names.place(video, ext),
      dubbedResult: this.wanted.includes('translated_mp3')
        ? (this.records.known.get('translated_mp3')?.path ?? null)
        : null,
      done: (path, bytes) => this.records.put({ job_id: id, type: video, path, bytes, done: 1 }),
    };
  }

  /**
   * The job's completion, with the last records in one transaction: nothing happens between the two, so a
   * crash finds exactly what it found before (the moves recorded, recognised on resume).
   */
  finish(): void {
    try {
      this.job.end(
        { type: 'downloaded', measuredDuration: this.dub.measured_duration },
        this.records.recordMoved,
      );
    } catch (e) {
      // The job was taken meanwhile (canceled…): the files are in place all the same, and recorded so.
      this.records.recordMoved();
      throw e;
    }
  }

  private async one(type: OutputType, before: OutputRow | undefined, perSource: boolean): Promise<void> {
    if (perSource && (await this.shareSourceOutput(type, before))) return;
    const target = await this.targetFor(type, before, perSource);
    const result = await this.download(type, target);
    const path = await this.nameAsSniffed(type, target.path, result);
    const twin = await identicalOutput([...this.records.known.values()], result.sha256, result.bytes);
    if (twin) {
      // The same bytes under two output types (`translated` is often the MP4 itself): keep one file.
      await rm(`${path}.part`, { force: true });
      this.records.put({ job_id: this.job.row.id, type, path: twin.path, bytes: twin.bytes, done: 1 });
      return;
    }
    if (await this.alreadyAtPlainName(type, path, result)) return;
    await this.moveIntoPlace(type, path, result);
  }

  /**
   * This very result already beside the source under its plain name, nobody's record (written before the
   * queue database was restored): the same bytes are taken where they are, never kept twice as `(2)`.
   */
  private async alreadyAtPlainName(type: OutputType, path: string, result: Downloaded): Promise<boolean> {
    const id = this.job.row.id;
    const plain = this.names.place(type, extname(path).slice(1));
    if (path === plain || this.ctx.store.outputs.claimedByAnother(plain, id)) return false;
    if (!(await sameBytesAt(plain, result.bytes, result.sha256))) return false;
    await rm(`${path}.part`, { force: true });
    const saved = await this.ctx.store.results.lookAtResult(plain, result.sha256);
    this.records.put({ job_id: id, type, path: plain, bytes: result.bytes, done: 1 }, saved);
    return true;
  }

  /** A language-independent output another language of this source saved here: shared, not fetched again. */
  private async shareSourceOutput(type: OutputType, before: OutputRow | undefined): Promise<boolean> {
    const r = this.job.row;
    for (const o of sourceOutputs(this.ctx.store, r, type)) {
      const info = await stat(o.path).catch(() => null);
      if (!info?.isFile() || info.size !== o.bytes) continue;
      // What this job began before a crash is not needed any more.
      if (before && before.path !== o.path) await rm(`${before.path}.part`, { force: true });
      this.records.put({ job_id: r.id, type, path: o.path, bytes: o.bytes, done: 1 });
      return true;
    }
    return false;
  }

  /** The name an output downloads to: the one it began under, the one claimed for it, or a free one now. */
  private async targetFor(
    type: OutputType,
    before: OutputRow | undefined,
    perSource: boolean,
  ): Promise<Target> {
    const r = this.job.row;
    // The job's own names are claimed together, the first time one is needed.
    if (!before && !perSource) await this.names.claimOwnNames();
    const claimed = before ?? (perSource ? undefined : this.records.known.get(type));
    const wantedPath = claimed?.path ?? this.names.place(type, USUAL_FORMAT[type]);
    if (dirname(wantedPath) !== r.out_dir)
      await makeFolder(dirname(wantedPath)).catch((e: unknown) => {
        throw local(e, dirname(wantedPath), null);
      });
    // A name picked just now has no `.part` yet (freeName made sure): the download need not look for one.
    if (claimed) return { path: claimed.path, fresh: !before };
    // A shared output's part left by another language's attempt that a crash cut: nobody holds it now.
    if (perSource) await rm(`${wantedPath}.part`, { force: true });
    return { path: await this.names.pick(type, wantedPath), fresh: true };
  }

  /**
   * The output's bytes into `<path>.part`, resumed from what it holds. An expired link is fetched afresh (a
   * few times); a part's name someone else took sends the output to the next free name.
   */
  private async download(type: OutputType, target: Target): Promise<Downloaded> {
    const r = this.job.row;
    for (let refresh = 0, taken = 0; ; refresh++) {
      const link = this.dub.outputs[type];
      if (!link) throw new ApiError('protocol', `the service no longer offers ${type}`);
      try {
        return await this.ctx.clients.downloads.toPart(link.download_url, `${target.path}.part`, {
          signal: this.transferSignal,
          onProgress: (t, n) => this.ctx.progress(r.id, t, n),
          fresh: target.fresh,
          maxBytes: outputByteCap(r, this.dub.measured_duration, type),
        });
      } catch (e) {
        if (e instanceof NameTakenError && taken++ < MAX_TAKEN_NAMES) {
          // Someone put an entry at the part's name: it is theirs; this output takes the next free name.
          target.path = await this.names.pick(type, this.names.place(type, extname(target.path).slice(1)));
          target.fresh = true;
          refresh--;
          continue;
        }
        if (!(e instanceof ApiError && e.kind === 'forbidden')) throw await this.asLocal(e, target.path);
        if (refresh >= MAX_LINK_REFRESHES)
          // Fresh links refused again and again: the storage side is unwell; retry later with backoff.
          throw new ApiError(
            'server',
            `the service's links for ${type} keep being refused: ${e.message}`,
            e.status,
          );
        target.fresh = false; // the refused attempt may have left a part behind
        // The link expired: fresh ones, then resume.
        this.dub = await this.ctx.clients.v2.get(this.remoteId, this.ctx.signal);
      }
    }
  }

  /** A failed download's error, as the disk's when it is (with what the rest of the file needs). */
  private async asLocal(e: unknown, path: string): Promise<unknown> {
    const have = await stat(`${path}.part`).then(
      (s) => s.size,
      () => 0,
    );
    const source = this.job.row.source_bytes ?? 0;
    return local(e, dirname(path), source > have ? source - have : null);
  }

  /**
   * The extension is what the bytes are, from a short list of media formats: never what the service names.
   * Returns the name the part now has (renamed, and recorded first, when the format asks for another).
   */
  private async nameAsSniffed(type: OutputType, path: string, result: Downloaded): Promise<string> {
    const link = this.dub.outputs[type]?.download_url ?? '';
    const format = await sniffedPart(type, `${path}.part`, result, link);
    if (extname(path).slice(1) === format) return path;
    // Record the new name first, then move the part.
    const planned = this.names.planned;
    const renamed = await this.names.freeFor(
      this.names.place(type, format),
      type,
      (p) => planned.has(p) && p !== path,
    );
    this.records.put({ job_id: this.job.row.id, type, path: renamed, bytes: null, done: 0 });
    await rename(`${path}.part`, `${renamed}.part`);
    return renamed;
  }

  /**
   * The part moved to its name (another free one if it was taken meanwhile), its record and content with
   * the next record the job writes.
   */
  private async moveIntoPlace(type: OutputType, path: string, result: Downloaded): Promise<void> {
    const id = this.job.row.id;
    // Recorded before the move, so a crash during it is recognised on the next run.
    this.records.put({ job_id: id, type, path, bytes: result.bytes, done: 0 });
    const { path: final, entry } = await settleWritten(`${path}.part`, path, result.identity).catch(
      (e: unknown) => {
        throw local(e, dirname(path), null);
      },
    );
    await holdPoint('output-moved');
    const settled: OutputRow = { job_id: id, type, path: final, bytes: result.bytes, done: 1 };
    const saved = await this.ctx.store.results.lookAtResult(final, result.sha256, entry);
    // Moved under another name (the wanted one was taken meanwhile): a resume would not find it, record now.
    if (final !== path) this.records.put(settled, saved);
    else this.records.movedIntoPlace(settled, saved);
  }
}
