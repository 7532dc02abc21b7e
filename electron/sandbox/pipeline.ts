import { join, parse } from 'node:path';
import { ExternalStatus } from '../../shared/api/common';
import { creditsFor } from '../../shared/credits';
import { safeFileName } from './content-disposition';
import type { Faults } from './faults';
import { quotingKey } from './key-quote';
import { makeArtifacts, probeMedia } from './media';
import { PoolClosedError, type ProcessPool } from './process-pool';
import type { SandboxDub, SandboxState } from './state';

/** Share of the pipeline's time spent "In Queue" before processing starts. */
const QUEUE_SHARE = 0.1;

const isOver = (d: SandboxDub) =>
  d.frozen || d.externalStatusId === ExternalStatus.Completed || d.externalStatusId === ExternalStatus.Failed;

/**
 * Walks dubs through the statuses as time passes. The media work (probe, artifacts) starts when processing
 * begins and runs in the background; a dub completes once its time is up and that work is done. Only dubs
 * still on their way are looked at, so the cost of a tick does not grow with the history.
 */
export class Pipeline {
  /** Queued dubs that have not ended yet. */
  private readonly active = new Set<SandboxDub>();
  /** Media work under way, by dub id. */
  private readonly working = new Map<string, Promise<void>>();
  /**
   * Dubs whose processing began, waiting for media work in order. At most `pool.size` dubs are worked on
   * at once, so the first ones finish first instead of every dub's probe running before anyone's encode.
   */
  private readonly mediaQueue: SandboxDub[] = [];
  private readonly inMediaQueue = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly state: SandboxState,
    private readonly faults: Faults,
    private readonly pipelineMs: number,
    private readonly artifactsDir: string,
    /** Without its tools, media is read by the in-process parser and copied, as on a machine without ffmpeg. */
    private readonly pool: ProcessPool,
  ) {}

  start(): void {
    // Dubs read back from a state directory carry on where they were.
    for (const dub of this.state.dubs.values())
      if (dub.queuedAt !== null && !isOver(dub)) this.active.add(dub);
    this.timer = setInterval(() => {
      // A throw here would end the process; a bug in one tick must not take the service down.
      try {
        this.advanceAll();
      } catch (e) {
        console.error('[sandbox] pipeline tick failed:', e);
      }
    }, 100);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.stopped = true;
    this.pool.close();
  }

  /** Puts an uploaded dub in the queue (v2 create, v1/legacy start-dub). */
  enqueue(dub: SandboxDub): void {
    dub.queuedAt = this.state.now();
    dub.externalStatusId = ExternalStatus.InQueue;
    dub.internalStatusId = 1;
    dub.progress = 0;
    dub.failsInPipeline = this.faults.roll('rateDubFailure');
    this.active.add(dub);
    this.state.saved(dub);
  }

  /** Dispatch failed (502): the dub exists but will never run. */
  freeze(dub: SandboxDub, message: string): void {
    dub.frozen = true;
    dub.externalStatusId = ExternalStatus.Failed;
    dub.internalStatusId = 9;
    dub.errorMessage = message;
    this.active.delete(dub);
    this.state.saved(dub);
  }

  /** Settles in-flight media work; used on stop so no ffmpeg outlives the sandbox. */
  async idle(): Promise<void> {
    while (this.working.size > 0) await Promise.allSettled([...this.working.values()]);
  }

  advanceAll(): void {
    for (const dub of this.active) this.advance(dub);
  }

  private startMediaWork(): void {
    while (this.working.size < this.pool.size && this.mediaQueue.length > 0 && !this.stopped) {
      const dub = this.mediaQueue.shift();
      if (!dub) break;
      this.inMediaQueue.delete(dub.id);
      if (isOver(dub)) continue;
      this.working.set(
        dub.id,
        this.prepare(dub).finally(() => {
          this.working.delete(dub.id);
          this.startMediaWork();
          this.advance(dub);
        }),
      );
    }
  }

  private async prepare(dub: SandboxDub): Promise<void> {
    try {
      const media = await probeMedia(dub.uploadPath, this.pool);
      // Room for `.<lang>.<ext>` within the 255 bytes a file name may take.
      const stem = safeFileName(parse(dub.name.replace(/[/\\]/g, '_')).name, 'dub', 200);
      dub.artifacts = await makeArtifacts(
        dub.uploadPath,
        dub.type,
        media,
        { source: dub.sourceLang, dest: dub.destLang },
        join(this.artifactsDir, dub.id),
        stem,
        this.pool,
        this.faults.badDubsFor(dub.destLang),
      );
      dub.media = { ok: true, duration: Math.round(media.duration * 1000) / 1000 };
    } catch (e) {
      // Stopped before it could run: left undone, so a restart from a state directory does it then.
      if (e instanceof PoolClosedError) return;
      // What ffmpeg said, not the command line, and the service's own paths never reach a client.
      const said = (e as { stderr?: unknown }).stderr;
      const text =
        typeof said === 'string' && said.trim() ? said : e instanceof Error ? e.message : String(e);
      const reason = (text.trim().split('\n')[0] ?? '')
        .replaceAll(dub.uploadPath, dub.name)
        .replaceAll(this.artifactsDir, '')
        .trim();
      dub.media = {
        ok: false,
        error: `Could not read the media file: ${reason || 'not a video or audio file'}`,
      };
    }
    this.state.saved(dub);
  }

  /** Brings one dub up to the sandbox's current time; reads call it for the dubs they present. */
  advance(dub: SandboxDub): void {
    if (dub.queuedAt === null) return;
    if (isOver(dub)) {
      this.active.delete(dub);
      return;
    }
    const share = (this.state.now() - dub.queuedAt) / this.pipelineMs;
    if (
      share >= QUEUE_SHARE &&
      dub.media === null &&
      !this.working.has(dub.id) &&
      !this.inMediaQueue.has(dub.id)
    ) {
      // The media work begins when processing does: a long queue costs no ffmpeg time.
      this.mediaQueue.push(dub);
      this.inMediaQueue.add(dub.id);
      this.startMediaWork();
    }
    const media = dub.media;
    if (media && !media.ok && share >= QUEUE_SHARE) return this.fail(dub, media.error);
    if (dub.failsInPipeline && share >= 0.5)
      return this.fail(dub, 'Voice cloning failed (simulated pipeline failure)');
    if (share < QUEUE_SHARE) return;
    if (share >= 1 && media?.ok) return this.complete(dub, media.duration);

    const processing = Math.min(1, (share - QUEUE_SHARE) / (1 - QUEUE_SHARE));
    const internal = Math.min(8, 2 + Math.floor(processing * 7));
    const progress = Math.min(99, Math.max(dub.progress, Math.round(share * 1000) / 10));
    if (
      dub.externalStatusId !== ExternalStatus.Processing ||
      dub.internalStatusId !== internal ||
      dub.progress !== progress
    ) {
      dub.externalStatusId = ExternalStatus.Processing;
      dub.internalStatusId = internal;
      dub.progress = progress;
      this.state.touched(dub);
    }
  }

  private fail(dub: SandboxDub, message: string): void {
    const key = this.state.accounts.get(dub.ownerId)?.apiKey;
    dub.externalStatusId = ExternalStatus.Failed;
    dub.internalStatusId = 9;
    dub.errorMessage = key && this.faults.roll('rateQuoteKey') ? quotingKey(message, key, true) : message;
    this.active.delete(dub);
    this.state.saved(dub);
  }

  /** The only place credits move: once per dub, against the measured duration. */
  private complete(dub: SandboxDub, measured: number): void {
    dub.externalStatusId = ExternalStatus.Completed;
    dub.internalStatusId = 10;
    dub.progress = 100;
    dub.measuredDuration = measured;
    this.active.delete(dub);
    if (!dub.charged) {
      dub.charged = true;
      const seconds = creditsFor(measured, dub.studio);
      const owner = this.state.accounts.get(dub.ownerId);
      if (owner) owner.seconds -= seconds;
      dub.charge = {
        dubId: dub.id,
        userId: dub.ownerId,
        seconds,
        measuredDuration: measured,
        studio: dub.studio,
        at: new Date(this.state.now()).toISOString(),
      };
      this.state.ledger.push(dub.charge);
    }
    this.state.saved(dub);
  }
}
