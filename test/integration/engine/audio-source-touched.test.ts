/**
 * The audio path's rebuild puts the dubbed sound under the source's own picture, so it checks the source
 * is still the file that was dubbed. That file is its content: a `touch`, or a delete and a byte-identical
 * copy put back (`cp`), is the same file and is rebuilt without a second charge; a file whose bytes really
 * changed is refused, in words that say what to do, and its paid dubbed sound is kept, so that putting the
 * dubbed version back and retrying makes the video with nothing charged again.
 */
import { copyFileSync, existsSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import type { DubdeskHost } from '../../../electron/engine/index';
import type { JobView } from '../../../shared/contract/jobs';
import { videoMd5, videoMp4 } from '../../helpers/media';
import { engineFor, quickRun, whenJob } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  // Long enough a pipeline that the change lands between the dub's creation and its result.
  sb = await startSandbox({ pipelineSeconds: 2, balance: 100_000 });
});
afterAll(() => sb.stop());

/** A user's own copy of a talk, under a non-ASCII name (decomposed, as macOS writes it). */
function ownTalk(seconds: number): { dir: string; path: string } {
  const dir = tempDir('talks');
  const path = join(dir, 'touche\u0301 talk.mp4');
  copyFileSync(videoMp4(seconds, `touched-${seconds}.mp4`), path);
  return { dir, path };
}

/** Adds the talk for Spanish on the audio path and runs until its dub is created, then calls `change`. */
async function dubAndChange(
  engine: DubdeskHost,
  talk: string,
  out: string,
  change: () => void,
): Promise<JobView> {
  const { added } = await engine.api.add({ inputs: [talk], to: ['es'], outDir: out, send: 'audio' });
  const created = whenJob(engine.api, (j) => j.remoteId !== null);
  const running = engine.run(quickRun(1));
  const atCreate = await created;
  change();
  // The premise: the change came before the video was made.
  expect(atCreate.outputs.some((o) => o.type === 'translated_mp4')).toBe(false);
  await running;
  return engine.api.getJob({ id: added[0] ?? 0 });
}

const dubbedKept = (home: string) =>
  readdirSync(join(home, 'staging', '.audio-path', 'dubbed')).filter((f) => !f.endsWith('.part'));

describe('the source between its dub and its rebuild', () => {
  it('touched (same bytes, new time): the video is made, charged once', async () => {
    const engine = engineFor(sb, tempDir('home'));
    const out = tempDir('out');
    const { path } = ownTalk(4);
    try {
      const paidBefore = sb.state.ledger.length;
      const job = await dubAndChange(engine, path, out, () => {
        const later = new Date(Date.now() + 60_000);
        utimesSync(path, later, later);
      });
      expect(job.error?.message ?? null).toBeNull();
      expect(job.state).toBe('completed');
      const video = job.outputs.find((o) => o.type === 'translated_mp4');
      expect(videoMd5(video?.path ?? '')).toBe(videoMd5(path));
      expect(sb.state.ledger.length - paidBefore).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it('deleted then put back byte for byte (cp): the video is made, charged once', async () => {
    const engine = engineFor(sb, tempDir('home'));
    const out = tempDir('out');
    const { dir, path } = ownTalk(5);
    const backup = join(tempDir('backup'), 'kept.mp4');
    copyFileSync(path, backup);
    try {
      const paidBefore = sb.state.ledger.length;
      const job = await dubAndChange(engine, path, out, () => {
        rmSync(path);
        copyFileSync(backup, join(dir, 'touche\u0301 talk.mp4'));
      });
      expect(job.error?.message ?? null).toBeNull();
      expect(job.state).toBe('completed');
      expect(sb.state.ledger.length - paidBefore).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it('really changed: refused, saying what to do; the dubbed version put back and retried, made with no new charge', async () => {
    const home = tempDir('home');
    const engine = engineFor(sb, home);
    const out = tempDir('out');
    const { path } = ownTalk(6);
    const backup = join(tempDir('backup'), 'as-dubbed.mp4');
    copyFileSync(path, backup);
    try {
      const paidBefore = sb.state.ledger.length;
      const dubsBefore = startedDubs(sb).length;
      // Another video saved over it: same name, other bytes.
      const failed = await dubAndChange(engine, path, out, () =>
        copyFileSync(videoMp4(3, 'other.mp4'), path),
      );
      expect(failed.state).toBe('failed');
      expect(failed.error?.message).toBe(
        `${path} changed since it was dubbed: its picture no longer matches the dubbed sound`,
      );
      expect(failed.error?.remedy).toMatch(/put the version that was dubbed back and retry/i);
      expect(failed.outputs.some((o) => o.type === 'translated_mp4')).toBe(false);
      // The paid dubbed sound is kept while the job can still be rebuilt, a later run's start included.
      expect(dubbedKept(home)).toHaveLength(1);
      await engine.run(quickRun(1));
      expect(dubbedKept(home)).toHaveLength(1);

      copyFileSync(backup, path);
      await engine.api.retryJobs({ ids: [failed.id] });
      await engine.run(quickRun(1));
      const done = await engine.api.getJob({ id: failed.id });
      expect(done.error?.message ?? null).toBeNull();
      expect(done.state).toBe('completed');
      const video = done.outputs.find((o) => o.type === 'translated_mp4');
      expect(videoMd5(video?.path ?? '')).toBe(videoMd5(backup));
      expect(sb.state.ledger.length - paidBefore).toBe(1);
      expect(startedDubs(sb).length - dubsBefore).toBe(1);
      expect(dubbedKept(home)).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('gone at the rebuild: refused, saying to put it back; put back (cp) and retried, made with no new charge', async () => {
    const home = tempDir('home');
    const engine = engineFor(sb, home);
    const out = tempDir('out');
    const { path } = ownTalk(7);
    const backup = join(tempDir('backup'), 'moved-away.mp4');
    copyFileSync(path, backup);
    try {
      const paidBefore = sb.state.ledger.length;
      const failed = await dubAndChange(engine, path, out, () => rmSync(path));
      expect(failed.state).toBe('failed');
      expect(failed.error?.message).toMatch(/the source is gone, and its picture makes the dubbed video/);
      expect(failed.error?.remedy).toMatch(/put it back, then retry/i);

      copyFileSync(backup, path);
      expect(existsSync(path)).toBe(true);
      await engine.api.retryJobs({ ids: [failed.id] });
      await engine.run(quickRun(1));
      const done = await engine.api.getJob({ id: failed.id });
      expect(done.error?.message ?? null).toBeNull();
      expect(done.state).toBe('completed');
      expect(sb.state.ledger.length - paidBefore).toBe(1);
    } finally {
      await engine.close();
    }
  });
});
