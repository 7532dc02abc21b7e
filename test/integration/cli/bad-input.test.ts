import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, emptyFile, textFile, videoMp4 } from '../../helpers/media';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({
    pipelineSeconds: 0.3,
    users: [
      { apiKey: 'broke-key', seconds: 0 },
      { apiKey: 'small-key', seconds: 5 },
    ],
  });
});
afterAll(() => sb.stop());

function setup(key?: string) {
  const work = tempDir('dubdesk-bad-');
  return { work, env: envFor(sb, join(work, 'home'), key) };
}

async function queued(env: NodeJS.ProcessEnv): Promise<number> {
  const r = await runCli(['status', '--json'], env);
  return (JSON.parse(r.stdout) as { jobs: unknown[] }).jobs.length;
}

describe('bad input', () => {
  it('names each bad file with a fix, and the valid rest of the batch completes (exit 1)', async () => {
    const { work, env } = setup();
    const empty = emptyFile('empty.mp4');
    const text = textFile('renamed.mp4', 'plain text pretending to be a video\n'.repeat(20));
    const missing = join(work, 'nowhere.mp4');
    const good = videoMp4(2, 'good.mp4');
    const r = await runCli(
      ['dub', empty, text, missing, good, '--to', 'es', '--out', join(work, 'out'), '--poll-interval', '0.2'],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`skipped: ${empty}: the file is empty`);
    expect(r.stderr).toContain(`skipped: ${text}: not a video or audio file`);
    expect(r.stderr).toContain(`skipped: ${missing}: no such file`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect((await readdir(join(work, 'out'))).sort()).toEqual(['good.es.mp4', 'good.es.vtt']);
  });

  it('refuses unknown and auto targets with exit 2 and enqueues nothing', async () => {
    const { env } = setup();
    const xx = await runCli(['add', videoMp4(2, 'good.mp4'), '--to', 'es,xx'], env);
    expect(xx.code).toBe(2);
    expect(xx.stderr).toContain("unknown target language 'xx'");
    const auto = await runCli(['add', videoMp4(2, 'good.mp4'), '--to', 'auto'], env);
    expect(auto.code).toBe(2);
    expect(auto.stderr).toContain("'auto' is a source language only");
    expect(await queued(env)).toBe(0);
  });

  it('refuses a non-legacy language and non-MP4 files for the legacy API', async () => {
    const { env } = setup();
    const lang = await runCli(['add', videoMp4(2, 'good.mp4'), '--to', 'sw', '--api', 'legacy'], env);
    expect(lang.code).toBe(2);
    expect(lang.stderr).toContain("unknown target language 'sw' for the legacy API");
    const mp3 = await runCli(['add', audioMp3(), '--to', 'es', '--api', 'legacy'], env);
    expect(mp3.code).toBe(2);
    expect(mp3.stderr).toContain('the legacy API takes only MP4 video');
    expect(await queued(env)).toBe(0);
  });

  it('exits 4 on zero balance or a batch over the balance (unless --force), 3 on a bad key', async () => {
    const broke = setup('broke-key');
    const r = await runCli(['dub', videoMp4(2, 'good.mp4'), '--to', 'es'], broke.env);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the balance is 0');
    expect(await queued(broke.env)).toBe(0);

    const small = setup('small-key');
    const over = await runCli(['add', videoMp4(3, 'a.mp4'), '--to', 'es,fr'], small.env);
    expect(over.code).toBe(4);
    expect(over.stderr).toMatch(/needs about 6 credits.*balance is 5.*--force/);
    const forced = await runCli(['add', videoMp4(3, 'a.mp4'), '--to', 'es,fr', '--force'], small.env);
    expect(forced.code).toBe(0);
    expect(await queued(small.env)).toBe(2);

    const bad = setup('not-a-key');
    const denied = await runCli(['dub', videoMp4(2, 'good.mp4'), '--to', 'es'], bad.env);
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('Invalid API key');
    const me = await runCli(['me'], bad.env);
    expect(me.code).toBe(3);
  });

  it('usage errors exit 2 with help, not a stack trace', async () => {
    const { env } = setup();
    const noTo = await runCli(['add', videoMp4(2, 'good.mp4')], env);
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain("required option '--to <langs>'");
    const badApi = await runCli(['add', videoMp4(2, 'good.mp4'), '--to', 'es', '--api', 'v9'], env);
    expect(badApi.code).toBe(2);
    const onlyBad = await runCli(['dub', join(tempDir(), 'missing.mp4'), '--to', 'es'], env);
    expect(onlyBad.code).toBe(2);
    expect(existsSync(join(env.DUBDESK_HOME ?? '', 'run.lock'))).toBe(false);
  });
});
