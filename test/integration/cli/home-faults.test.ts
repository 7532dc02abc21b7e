import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { CLI } from '../../helpers/cli';
import { allJobs, engineFor } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const children: ChildProcess[] = [];
afterEach(() => {
  // A command that spins for ever (the fault itself) must not outlive its test.
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** `dubdesk ARGS` with this home, through `wrapper` (e.g. setpriv) when given. */
function run(args: string[], home: string, wrapper: string[] = []) {
  const env = { ...process.env, DUBDESK_HOME: home, DUBDESK_DEBUG: '' };
  const [file, ...rest] = [...wrapper, process.execPath, CLI, ...args] as [string, ...string[]];
  const child = spawn(file, rest, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
}

describe('a data folder Dubdesk cannot use', () => {
  it.each([['status'], ['doctor'], ['restore-db'], ['serve', '--link']])(
    'DUBDESK_HOME with a line break in it (a pasted path): `%s` refuses it, naming the variable, and makes no folder',
    async (...args) => {
      const parent = tempDir();
      const home = join(parent, 'Dubdesk\nhome');
      const r = await run(args, home);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('DUBDESK_HOME');
      expect(r.stderr).toMatch(/line break/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(home)).toBe(false);
    },
  );

  it.skipIf(!existsSync('/proc/self'))(
    'on a /proc-like file system: a message naming the folder and what to do, and an exit (not a spin)',
    async () => {
      const home = '/proc/dubdesk-no-such/home';
      const r = await run(['status'], home);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(home);
      expect(r.stderr).toMatch(/DUBDESK_HOME|--home/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    240_000,
  );

  it.skipIf(!existsSync('/proc/self'))(
    'a sandbox state folder there: a message naming it, and an exit (not a spin)',
    async () => {
      const state = '/proc/dubdesk-no-such/state';
      const r = await run(['sandbox', '--state-dir', state, '--port', '0'], tempDir());
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(state);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    240_000,
  );

  /**
   * Root writes anywhere; it runs here without the capabilities that let it (setpriv), so the folder's
   * modes apply as they do to a user.
   */
  const asRoot = process.getuid?.() === 0;
  const setpriv = ['setpriv', '--bounding-set', '-dac_override,-dac_read_search,-fowner'];
  const hasSetpriv = !asRoot || spawnSync('setpriv', ['--version']).status === 0;

  it.skipIf(!hasSetpriv || process.platform === 'win32')(
    'read-only (logs and all): a message naming the folder and what to do, never an unhandled error',
    async () => {
      const home = join(tempDir(), 'home');
      mkdirSync(join(home, 'logs'), { recursive: true });
      writeFileSync(join(home, 'logs', 'dubdesk.log'), '');
      // Someone else's folder, as after a copy from another account: not ours to chmod back.
      for (const p of [join(home, 'logs', 'dubdesk.log'), join(home, 'logs'), home]) {
        if (asRoot) chownSync(p, 65534, 65534);
        chmodSync(p, p.endsWith('.log') ? 0o444 : 0o555);
      }
      const r = await run(['status'], home, asRoot ? setpriv : []);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(home);
      expect(r.stderr).toMatch(/DUBDESK_HOME|--home/);
      expect(r.stderr).not.toMatch(/Unhandled|\n\s+at /);
    },
    240_000,
  );

  it('a damaged queue database: named with `dubdesk restore-db`, which puts the newest good backup back', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.3 });
    try {
      const home = tempDir();
      const first = engineFor(sb, home);
      await first.api.add({ inputs: [videoMp4(1, 'kept.mp4')], to: ['es'], outDir: tempDir() });
      await first.close();
      await engineFor(sb, home).close(); // this start backs the job up
      writeFileSync(join(home, 'dubdesk.db'), Buffer.alloc(8192, 0x5a));

      const damaged = await run(['status'], home);
      expect(damaged.code).not.toBe(0);
      expect(damaged.stderr).toContain(join(home, 'dubdesk.db'));
      expect(damaged.stderr).toContain('dubdesk restore-db');

      const restored = await run(['restore-db'], home);
      expect(restored.code, restored.stderr).toBe(0);
      const after = engineFor(sb, home);
      try {
        expect((await allJobs(after.api)).map((j) => j.sourceName)).toEqual(['kept.mp4']);
      } finally {
        await after.close();
      }
    } finally {
      await sb.stop();
    }
  }, 240_000);
});
