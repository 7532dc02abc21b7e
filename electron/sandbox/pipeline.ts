import { join, parse } from 'node:path';
import { ExternalStatus } from '../../shared/api/common';
import { creditsFor } from '../../shared/credits';
import { safeFileName } from './content-disposition';
import type { Faults } from './faults';
import { makeArtifacts, probeMedia } from './media';
import type { SandboxDub, SandboxState } from './state';

type Preparation =
  { done: false } | { done: true; ok: true; duration: number } | { done: true; ok: false; error: string };

/** Share of the pipeline's time spent "In Queue" before processing starts. */
const QUEUE_SHARE = 0.1;

/**
 * Walks dubs through the statuses as time passes. The media work (probe, artifacts) starts when processing
 * begins and runs in the background; a dub completes once its time is up and that work is done.
 */
export class Pipeline {
  private readonly preparations = new Map<string, Preparation>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly state: SandboxState,
    private readonly faults: Faults,
    private readonly pipelineMs: number,
    private readonly artifactsDir: string,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.advanceAll(), 100);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Puts an uploaded dub in the queue (v2 create, v1/legacy start-dub). */
  enqueue(dub: SandboxDub): void {
    dub.queuedAt = this.state.now();
    dub.externalStatusId = ExternalStatus.InQueue;
    dub.internalStatusId = 1;
    dub.progress = 0;
    dub.failsInPipeline = this.faults.roll('rateDubFailure');
  }

  /** Dispatch failed (502): the dub exists but will never run. */
  freeze(dub: SandboxDub, message: string): void {
    dub.frozen = true;
    dub.externalStatusId = ExternalStatus.Failed;
    dub.internalStatusId = 9;
    dub.errorMessage = message;
  }

  /** Settles in-flight media work; used on stop so no ffmpeg outlives the sandbox. */
  async idle(): Promise<void> {
    while ([...this.preparations.values()].some((p) => !p.done)) await new Promise((r) => setTimeout(r, 20));
  }

  advanceAll(): void {
    for (const dub of this.state.dubs.values()) this.advance(dub);
  }

  private async prepare(dub: SandboxDub): Promise<void> {
    try {
      const media = await probeMedia(dub.uploadPath);
      // Room for `.<lang>.<ext>` within the 255 bytes a file name may take.
      const stem = safeFileName(parse(dub.name.replace(/[/\\]/g, '_')).name, 'dub', 200);
      dub.artifacts = await makeArtifacts(
        dub.uploadPath,
        dub.type,
        media,
        { source: dub.sourceLang, dest: dub.destLang },
        join(this.artifactsDir, dub.id),
        stem,
      );
      this.preparations.set(dub.id, {
        done: true,
        ok: true,
        duration: Math.round(media.duration * 1000) / 1000,
      });
    } catch (e) {
      const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
      this.preparations.set(dub.id, {
        done: true,
        ok: false,
        error: `Could not read the media file: ${reason}`,
      });
    }
    this.advance(dub);
  }

  private advance(dub: SandboxDub): void {
    if (dub.frozen || dub.queuedAt === null) return;
    if (dub.externalStatusId === ExternalStatus.Completed || dub.externalStatusId === ExternalStatus.Failed)
      return;
    const share = (this.state.now() - dub.queuedAt) / this.pipelineMs;
    if (share >= QUEUE_SHARE && !this.preparations.has(dub.id)) {
      // The media work begins when processing does: a long queue costs no ffmpeg time.
      this.preparations.set(dub.id, { done: false });
      void this.prepare(dub);
    }
    const prep = this.preparations.get(dub.id) ?? { done: false };

    if (prep.done && !prep.ok && share >= QUEUE_SHARE) return this.fail(dub, prep.error);
    if (dub.failsInPipeline && share >= 0.5)
      return this.fail(dub, 'Voice cloning failed (simulated pipeline failure)');
    if (share < QUEUE_SHARE) return;
    if (share >= 1 && prep.done && prep.ok) return this.complete(dub, prep.duration);

    dub.externalStatusId = ExternalStatus.Processing;
    const processing = Math.min(1, (share - QUEUE_SHARE) / (1 - QUEUE_SHARE));
    dub.internalStatusId = Math.min(8, 2 + Math.floor(processing * 7));
    dub.progress = Math.min(99, Math.max(dub.progress, Math.round(share * 1000) / 10));
  }

  private fail(dub: SandboxDub, message: string): void {
    dub.externalStatusId = ExternalStatus.Failed;
    dub.internalStatusId = 9;
    dub.errorMessage = message;
  }

  /** The only place credits move: once per dub, against the measured duration. */
  private complete(dub: SandboxDub, measured: number): void {
    dub.externalStatusId = ExternalStatus.Completed;
    dub.internalStatusId = 10;
    dub.progress = 100;
    dub.measuredDuration = measured;
    if (dub.charged) return;
    dub.charged = true;
    const seconds = creditsFor(measured, dub.studio);
    const owner = this.state.accounts.get(dub.ownerId);
    if (owner) owner.seconds -= seconds;
    this.state.ledger.push({
      dubId: dub.id,
      userId: dub.ownerId,
      seconds,
      measuredDuration: measured,
      studio: dub.studio,
      at: new Date(this.state.now()).toISOString(),
    });
  }
}
