/**
 * `dubdesk run --until-done` works the queue and returns: it does not watch folders. With folders to watch,
 * it says so in one line, naming the commands that do.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false });
});
afterAll(() => sb.stop());

describe('run --until-done and watched folders', () => {
  it('says in one line that the folders are not watched, and which command watches them', async () => {
    const work = tempDir();
    const env = envFor(sb, join(work, 'home'));
    const quiet = await runCli(['run', '--until-done'], env);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/watch/i);

    const folder = join(work, 'incoming');
    mkdirSync(folder);
    expect((await runCli(['watch', folder, '--to', 'es'], env)).code).toBe(0);
    const r = await runCli(['run', '--until-done'], env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => /watch/i.test(l));
    expect(lines).toEqual([
      `dubdesk: 1 watched folder is not watched by \`run --until-done\` (${folder}); \`dubdesk run\` or \`dubdesk serve\` watches it.`,
    ]);
  });
});
