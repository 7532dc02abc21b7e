import { readFile, rm, stat } from 'node:fs/promises';
import { extname, parse } from 'node:path';
import { isTerminal } from '../../../shared/contract/jobs';
import type { Qc, QcProblem } from '../../../shared/contract/deliver';
import { deliverOf, idsOf, languagesOf, type PackageRow } from '../db/job-store/deliver-values';
import type { JobRow, JobStore } from '../db/jobs';
import { deliverJob, dubWebVtt, type DoneOutput } from '../flows/deliver/job-deliverables';
import { srtBeside } from '../outputs/deliver-names';
import { copiedDubDelta } from '../flows/deliver/copied-dub';
import { makePackage } from '../flows/deliver/package-source';
import type { MediaTools } from '../../media-tools/locate';
import { ToolHostGoneError } from '../../media-tools/tool-host';
import { packageExtension } from '../media/ffmpeg/package';
import { sourceFacts, type MadeFrom, type SourceFacts } from '../media/qc/check-dub';
import { judge } from '../media/qc/rules';
import { PackageRoomWaits } from './package-room-waits';
import { checkSubtitles } from '../media/qc/subtitle-checks';
import { sanitizeName } from '../outputs/naming';
import { holdPoint } from '../files/hold-point';

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length &&
  [...a].sort((x, y) => x - y).every((id, i) => id === [...b].sort((x, y) => x - y)[i]);

/** Whether the file at `path` is a package in `format` (with a picture or without). */
const madeAs = (path: string, format: 'mkv' | 'mp4') =>
  [true, false].some((video) => extname(path) === `.${packageExtension(format, video)}`);

/** QC and packages at once at most: each is an ffmpeg pass over a whole file. */
export const DELIVERY_CONCURRENCY = 2;
/** Sources whose facts (length, pauses) are kept for their other languages. */
const SOURCE_FACTS_KEPT = 32;

/** What deliveries need; what they record, the store's commits tell everyone (the change feed). */
export interface DeliveryEnv {
  store: JobStore;
  /** The ffmpeg Dubdesk found (null: none), looked for once. */
  tools(): Promise<MediaTools | null>;
  /** Something went wrong that no record can hold (logged). */
  warn(message: string): void;
  /** The data folder's staging area: a package's converted subtitles are made there, beside its result's disk. */
  stagingDir: string;
}

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Sending the sound alone, the dub's video is made here (an audio-path job's `translated_mp4`): QC measures
 * that video, the file the user is handed, and reads the dub's own length from the sound it was made from
 * (the staged copy, else the sound among the results when it was asked for; for a copy, what the dub it
 * was linked from measured). Undefined for the service's own files.
 */
async function madeFrom(
  store: JobStore,
  row: JobRow,
  outputs: readonly DoneOutput[],
): Promise<MadeFrom | undefined> {
  if (row.send !== 'audio' || !outputs.some((o) => o.type === 'translated_mp4')) return undefined;
  if (row.dubbed_audio && (await isFile(row.dubbed_audio))) return { sound: row.dubbed_audio };
  const result = outputs.find((o) => o.type === 'translated_mp3')?.path ?? null;
  if (result !== null && (await isFile(result))) return { sound: result };
  return { sound: null, copiedDelta: copiedDubDelta(store, row) };
}

const problem = (code: QcProblem['code'], message: string, remedy: string): QcProblem => ({
  code,
  severity: 'warn',
  message,
  remedy,
});

/**
 * What happens to a dub once it is on disk, in the process that works the queue: its QC and SubRip file,
 * then, once no language of its source is left to finish, the source's package. Each piece has its own
 * record (`jobs.qc`, `packages`), written when it is done: a run that stops meanwhile does it again. At
 * most two at a time, each in ffmpeg processes of its own: never on the engine's event loop.
 */
export class Deliveries {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly facts = new Map<string, Promise<SourceFacts>>();
  /** Packages whose disk was full: tried again once it has room. */
  private readonly room: PackageRoomWaits;
  private stopped = false;
  /** The last look found nothing to start (and nothing runs): a run that should finish may. */
  private quiet = false;
  /** Told when the last delivery under way ended and nothing else is due: the run may be over. */
  onIdle: () => void = () => {};

  constructor(private readonly env: DeliveryEnv) {
    this.room = new PackageRoomWaits(env.store.packages, () => this.look());
  }

  /** Nothing running and nothing due when last looked. */
  get idle(): boolean {
    return this.running.size === 0 && this.quiet;
  }

  /** Starts what is due, up to the limit. Cheap when nothing is (two indexed reads). */
  look(): void {
    if (this.stopped) return;
    const slots = () => DELIVERY_CONCURRENCY - this.running.size;
    let found = false;
    for (const id of this.env.store.qc.due(DELIVERY_CONCURRENCY * 2)) {
      found = true;
      if (slots() <= 0) break;
      if (this.running.has(`job:${id}`)) continue;
      const row = this.env.store.qc.row(id);
      if (row) this.start(`job:${id}`, (signal) => this.deliverOne(row, signal));
    }
    for (const p of this.env.store.packages.due()) {
      if (slots() <= 0) {
        found = true;
        break;
      }
      if (this.running.has(`package:${p.id}`) || this.room.holds(p.id)) {
        found = true;
        continue;
      }
      const ready = this.readyToPackage(p);
      if (ready === null) continue;
      found = true;
      this.start(`package:${p.id}`, (signal) => this.packageOne(p, ready, signal));
    }
    this.quiet = !found;
  }

  /** Stops what runs (its records stay as they were: it is done again next time) and waits for it. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.room.stop();
    for (const r of this.running.values()) r.controller.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  private start(key: string, work: (signal: AbortSignal) => Promise<void>): void {
    if (this.running.has(key)) return;
    const controller = new AbortController();
    const done = work(controller.signal)
      .catch((e: unknown) => {
        if (!controller.signal.aborted) this.env.warn(`${key}: ${(e as Error)?.message ?? String(e)}`);
      })
      .finally(() => {
        this.running.delete(key);
        this.quiet = false;
        this.look();
        if (this.idle) this.onIdle();
      });
    this.running.set(key, { controller, done });
  }

  private sourceFactsOf(tools: MediaTools, row: JobRow, signal: AbortSignal): Promise<SourceFacts> {
    const key = `${row.source}\0${row.source_hash ?? ''}\0${row.audio_track}`;
    let facts = this.facts.get(key);
    if (!facts) {
      const path = row.source_kind === 'file' ? row.source : null;
      facts = sourceFacts(tools, path, row.duration ?? row.measured_duration, signal, row.audio_track);
      facts.catch(() => this.facts.delete(key));
      this.facts.set(key, facts);
      if (this.facts.size > SOURCE_FACTS_KEPT) this.facts.delete(this.facts.keys().next().value ?? key);
    }
    return facts;
  }

  /** One finished dub: QC, its SubRip file, both recorded in one commit. */
  private async deliverOne(row: JobRow, signal: AbortSignal): Promise<void> {
    const choice = deliverOf(row);
    if (!choice) return;
    const outputs: DoneOutput[] = this.env.store.qc.doneOutputs(row.id);
    const made = await madeFrom(this.env.store, row, outputs);
    const tools = await this.env.tools();
    await holdPoint('qc-measure');
    let done: { qc: Qc; srt: Awaited<ReturnType<typeof deliverJob>>['srt']; dropVtt: string | null };
    if (!tools)
      done = { qc: await this.qcWithoutFfmpeg(row, outputs, choice.loudness), srt: null, dropVtt: null };
    else {
      const facts = await this.sourceFactsOf(tools, row, signal);
      const vtt = dubWebVtt(outputs);
      const srtNameFree = vtt !== null && !this.env.store.outputs.claimedByAnother(srtBeside(vtt), row.id);
      const job = {
        id: row.id,
        outputs,
        madeFrom: made,
        subtitles: choice.subtitles,
        loudness: choice.loudness,
      };
      done = await deliverJob(tools, { ...job, srtNameFree }, facts, signal).catch(async (e: unknown) => {
        if (signal.aborted || e instanceof ToolHostGoneError) throw e;
        // The SubRip file could not be written (a full disk, a folder gone): QC is recorded all the same.
        const qc = await deliverJob(
          tools,
          { id: row.id, outputs, madeFrom: made, subtitles: ['vtt'], loudness: choice.loudness },
          facts,
          signal,
        );
        return {
          ...qc,
          qc: {
            ...qc.qc,
            problems: [
              ...qc.qc.problems,
              problem(
                'unchecked',
                `the SubRip file could not be written: ${(e as Error).message}`,
                'Free room or fix the folder, then Package now or dub again.',
              ),
            ],
            verdict: qc.qc.verdict === 'fail' ? 'fail' : 'warn',
          },
        };
      });
    }
    if (done.srt) {
      await this.env.store.results.recordOwnFile(done.srt.path);
      await this.env.store.results.recordResult(done.srt.path, done.srt.sha256);
    }
    const recorded = this.env.store.qc.record(row, done.qc, done.srt, done.dropVtt !== null);
    if (recorded && done.dropVtt) await rm(done.dropVtt, { force: true });
    if (recorded && row.dubbed_audio) await rm(row.dubbed_audio, { force: true });
  }

  /** No ffmpeg: the subtitles are checked, the sound cannot be, and QC says so. */
  private async qcWithoutFfmpeg(
    row: JobRow,
    outputs: readonly DoneOutput[],
    loudness: 'broadcast' | 'web',
  ): Promise<Qc> {
    const sub = outputs.find((o) => o.type === 'translated_subtitle');
    const subtitleProblems = sub
      ? checkSubtitles(
          await readFile(sub.path, 'utf8').catch(() => ''),
          row.duration ?? row.measured_duration,
        )
      : [];
    return judge({
      audio: null,
      sourceSeconds: row.duration,
      sourceSilences: null,
      jobId: row.id,
      subtitleProblems,
      target: loudness,
      extra: [
        problem(
          'unchecked',
          'the sound was not checked: no ffmpeg was found',
          'Install ffmpeg or set DUBDESK_FFMPEG (see dubdesk doctor).',
        ),
      ],
    });
  }

  /**
   * The jobs a package holds now: the latest finished dub of each language (not a later one still
   * running), once none of the source's languages is left to finish (or at once, for Package now). Null
   * when it is not time yet.
   */
  private readyToPackage(p: PackageRow): JobRow[] | null {
    const siblings = this.env.store.packages.siblings(p.source, p.out_dir);
    // Each language's own checks first (its SubRip file, its QC), so they are not waited for twice.
    const unfinished = (j: JobRow) =>
      !isTerminal(j.state) || (j.state === 'completed' && j.deliver !== null && j.qc === null);
    if (!p.now && siblings.some(unfinished)) return null;
    const latest = new Map<string, JobRow>();
    for (const j of siblings) if (j.state === 'completed') latest.set(j.dest_lang, j);
    return [...latest.values()];
  }

  /** One package; each of its records is heard by the faces (the change feed's `packages`). */
  private async packageOne(p: PackageRow, jobs: JobRow[], signal: AbortSignal): Promise<void> {
    // Taken: a language finishing from now on sets it waiting again (see Packages.done and failed).
    this.env.store.packages.making(p.id);
    const first = jobs[0];
    if (!first)
      return this.env.store.packages.failed(
        p.id,
        'no language of this source has finished: nothing to package',
      );
    if (first.source_kind !== 'file')
      return this.env.store.packages.failed(
        p.id,
        'a package takes the picture from the source file, and a URL source has none here',
      );
    const tools = await this.env.tools();
    if (!tools)
      return this.env.store.packages.failed(
        p.id,
        'a package is made with ffmpeg, and none was found (see dubdesk doctor)',
      );
    const ids = jobs.map((j) => j.id);
    const upToDate = p.path !== null && madeAs(p.path, p.format) && sameIds(idsOf(p.job_ids), ids);
    if (upToDate && p.path && (await stat(p.path).catch(() => null))?.isFile()) {
      // Wanted again with the very same dubs in the same format (a QC recorded after it was made).
      return this.env.store.packages.done(p.id, ids, languagesOf(p.languages), p.path);
    }
    const stem =
      first.source_kind === 'file'
        ? parse(first.source_name).name
        : sanitizeName(parse(first.source_name).name);
    try {
      const made = await makePackage(
        tools,
        {
          source: p.source,
          sourceLang: first.source_lang,
          outDir: p.out_dir,
          naming: p.naming,
          stem,
          format: p.format,
          defaultAudio: p.default_audio,
          // The track the dubs were made from is the package's original (the newest dub's, should they differ).
          audioTrack: jobs.at(-1)?.audio_track ?? 'first',
          stagingDir: this.env.stagingDir,
          jobs: jobs.map((j) => ({ lang: j.dest_lang, outputs: this.env.store.qc.doneOutputs(j.id) })),
          previous: p.path,
        },
        signal,
      );
      await this.env.store.results.recordOwnFile(made.path);
      await this.env.store.results.recordResult(made.path, made.sha256);
      this.env.store.packages.done(
        p.id,
        jobs.map((j) => j.id),
        made.languages,
        made.path,
      );
    } catch (e) {
      // The helper that runs ffmpeg died: the package is still wanted, and made on the next look.
      if (signal.aborted || e instanceof ToolHostGoneError) throw e;
      if (this.room.wait(p, e)) return;
      this.env.store.packages.failed(p.id, (e as Error)?.message ?? String(e));
    }
  }
}
