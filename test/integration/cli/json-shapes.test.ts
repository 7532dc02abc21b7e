import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AddJson,
  DubJson,
  EstimateJson,
  LangsJson,
  MeJson,
  RunJson,
  StatusJson,
  WatchFilesJson,
  WatchFolderJson,
  WatchListJson,
} from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

/**
 * Runs a command with `--json` and parses its stdout with the documented shape. Parsing drops fields the
 * shape does not name, so the output must equal its parse: nothing undocumented at any depth.
 */
async function json<S extends z.ZodType>(
  schema: S,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ code: number | null; doc: z.infer<S> }> {
  const r = await runCli([...args, '--json'], env, cwd);
  const raw: unknown = JSON.parse(r.stdout);
  const doc = schema.parse(raw);
  expect(raw, `${args[0]}: ${r.stderr}`).toEqual(doc);
  return { code: r.code, doc };
}

describe('--json: one documented shape per command, whatever happened', () => {
  it('add, dub (with a run, and with nothing new), run and status', async () => {
    const work = tempDir('dubdesk-json-');
    const env = envFor(sb, join(work, 'home'));
    const missing = join(work, 'missing.mp4');
    const out = ['--out', 'out', '--poll-interval', '0.1'];

    const add = await json(
      AddJson,
      ['add', videoMp4(2, 'json-a.mp4'), missing, '--to', 'es', '--out', 'out'],
      env,
      work,
    );
    expect(add.code).toBe(1);
    expect(add.doc.jobs).toEqual([1]);
    expect(add.doc.rejected).toEqual([
      expect.objectContaining({ input: missing, code: 'not-found', remedy: expect.any(String) }),
    ]);

    const run = await json(RunJson, ['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(run.code).toBe(0);
    expect(run.doc).toMatchObject({ outcome: 'done', exitCode: 0 });
    expect(run.doc.tally).toMatchObject({ completed: 1, failed: 0, open: 0, creditsCharged: 2 });
    expect(run.doc.queue.counts.completed).toBe(1);

    // A dub that runs: what was added AND what the run did, rejections included.
    // Another length: a source is its content, and json-a's bytes are already dubbed.
    const file = videoMp4(3, 'json-b.mp4');
    const dub = await json(DubJson, ['dub', file, missing, '--to', 'es', ...out], env, work);
    expect(dub.code).toBe(1);
    expect(dub.doc.added).toEqual([2]);
    expect(dub.doc.rejected.map((r) => r.code)).toEqual(['not-found']);
    expect(dub.doc.run?.tally.completed).toBe(1);
    expect(dub.doc.run?.jobs.map((j) => [j.id, j.state])).toEqual([[2, 'completed']]);

    // Nothing new: the same shape, the run null.
    const again = await json(DubJson, ['dub', file, '--to', 'es', ...out], env, work);
    expect(again.code).toBe(0);
    expect(again.doc.run).toBeNull();
    expect(again.doc.alreadyDone.map((d) => d.jobId)).toEqual([2]);

    const status = await json(StatusJson, ['status'], env);
    expect(status.doc.jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    expect(status.doc.queue.paused).toBeNull();
  }, 180_000);

  it('status --limit N --json: the last N jobs, as the table shows them; without --limit every job', async () => {
    const work = tempDir('dubdesk-json-');
    const env = envFor(sb, join(work, 'home'));
    const files = [2, 3, 4, 5].map((s) => videoMp4(s, `json-limit-${s}.mp4`));
    expect((await runCli(['add', ...files, '--to', 'es', '--out', join(work, 'out')], env)).code).toBe(0);

    const limited = await json(StatusJson, ['status', '--limit', '3'], env);
    expect(limited.doc.jobs.map((j) => j.id)).toEqual([2, 3, 4]);
    expect(limited.doc.queue.total).toBe(4);
    const table = (await runCli(['status', '--limit', '3'], env)).stdout;
    expect(table).not.toMatch(/^ *1 /m);
    expect(table).toMatch(/^ *4 /m);
    const every = await json(StatusJson, ['status'], env);
    expect(every.doc.jobs.map((j) => j.id)).toEqual([1, 2, 3, 4]);
    const all = await json(StatusJson, ['status', '--all', '--limit', '1'], env);
    expect(all.doc.jobs).toHaveLength(4);
  }, 60_000);

  it('estimate: refused files carry a code and a remedy, like add', async () => {
    const work = tempDir('dubdesk-json-');
    const env = envFor(sb, join(work, 'home'));
    const missing = join(work, 'nowhere.mp4');
    const est = await json(
      EstimateJson,
      ['estimate', videoMp4(3, 'json-c.mp4'), missing, '--to', 'es,fr'],
      env,
    );
    expect(est.code).toBe(1);
    expect(est.doc).toMatchObject({ jobs: 2, credits: 6, overBalance: false });
    expect(est.doc.files.map((f) => f.name)).toEqual(['json-c.mp4']);
    expect(est.doc.rejected).toEqual([
      { input: missing, code: 'not-found', message: expect.any(String), remedy: expect.any(String) },
    ]);
  });

  it('watch, me and langs', async () => {
    const work = tempDir('dubdesk-json-');
    const env = envFor(sb, join(work, 'home'));
    const dir = join(work, 'inbox');
    mkdirSync(dir);
    const added = await json(WatchFolderJson, ['watch', dir, '--to', 'es'], env);
    expect(added.doc.path).toBe(dir);
    expect((await json(WatchListJson, ['watch', '--list'], env)).doc.folders).toHaveLength(1);
    expect((await json(WatchFilesJson, ['watch', '--files', dir], env)).doc).toEqual({
      folder: added.doc.id,
      files: [],
    });
    expect((await json(MeJson, ['me'], env)).doc.seconds).toBe(sb.account.seconds);
    expect((await json(LangsJson, ['langs', '--legacy'], env)).doc).toHaveLength(17);
  });
});
