/**
 * A package whose output folder's disk is full, in the world a user has: a small real filesystem (a tmpfs)
 * where the dubs and their videos fit and the one file with every language does not. Dubdesk says what to
 * free where, waits, and makes it by itself once the user has freed what it said: never a half file under
 * the package's name, never a dub paid again.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statfsSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { StatusJson } from '../../../electron/cli/json-shapes';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { waitFor } from '../../helpers/http';
import { ffprobeJson, noisyVideoMp4 } from '../../helpers/media';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { canMountTmpfs, tmpfs } from '../../helpers/tmpfs';

const MiB = 1024 * 1024;
const mountable = canMountTmpfs();

/** One account per test: the tests run at once, and each counts its own dubs and credits. */
const KEYS = ['key-mkv', 'key-mp4', 'key-package-now', 'key-stopped'];
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, users: KEYS.map((apiKey) => ({ apiKey, seconds: 3600 })) });
  noisyVideoMp4(1, 'noisy-1s.mp4'); // made once, before the tests that copy it run at once
});
afterAll(() => sb.stop());

/** What the service started and charged for one account: a wait for room must change neither. */
function spent(apiKey: string) {
  const account = sb.state.accountByKey(apiKey);
  const dubs = startedDubs(sb).filter((d) => d.ownerId === account?.id).length;
  return { dubs, balance: account?.seconds };
}

const freeBytes = (dir: string) => {
  const { bavail, bsize } = statfsSync(dir);
  return bavail * bsize;
};

/** The disk holding `dir` filled in one allocation, `leave` bytes left free. Returns the filler. */
function fillLeaving(dir: string, leave: number): string {
  const filler = join(dir, 'other things.bin');
  execFileSync('fallocate', ['-l', String(freeBytes(dir) - leave), filler]);
  return filler;
}

/** `bytes` of the filler given back, as a user deletes what Dubdesk told them to. */
function freeUp(filler: string, bytes: number): void {
  truncateSync(filler, statSync(filler).size - bytes);
}

/** A 1-second 640x360 video of about 6 MB: its picture, copied into the package, is what needs the room. */
function bigVideo(dir: string, name: string): string {
  const path = join(dir, name);
  copyFileSync(noisyVideoMp4(1, 'noisy-1s.mp4'), path);
  return path;
}

async function status(env: NodeJS.ProcessEnv) {
  const r = await runCli(['status', '--json'], env);
  return StatusJson.parse(JSON.parse(r.stdout));
}

/** A running command whose stderr can be read while it runs. */
function started(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const run = startCli(args, env, cwd);
  let stderr = '';
  run.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { ...run, stderr: () => stderr };
}

/** "disk full: free N MiB in DIR" (N: any, or the one given), as the README words it. */
const packagePattern = (dir: string, mib?: number) =>
  new RegExp(
    `disk full: free (${mib ?? '\\d+'})\\.0 MiB in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=;|$)`,
  );

/** Waits until the command says the package waits for room; returns the MiB to free it names. */
async function saidToFree(cmd: ReturnType<typeof started>, out: string, mib?: number): Promise<number> {
  const words = packagePattern(out, mib);
  let heard = false;
  // A half package taken for a whole one ends the command instead: said at once, with its words.
  const ended = cmd.done.then((r) => {
    if (!heard) throw new Error(`it ended (exit ${r.code}) without waiting for room:\n${r.stderr}`);
    return '';
  });
  const line = await Promise.race([
    waitFor('the command to say the package waits for room', async () =>
      cmd
        .stderr()
        .split('\n')
        .find((l) => words.test(l)),
    ),
    ended,
  ]).finally(() => (heard = true));
  return Number(words.exec(line)?.[1]);
}

/** `status --json` says the same as the command's line. */
async function statusSays(env: NodeJS.ProcessEnv, out: string, mib: number) {
  const s = await status(env);
  expect(s.queue.packageDiskFull).toBe(`disk full: free ${mib}.0 MiB in ${out}`);
  return s;
}

/** Every stream of the package tagged, the source's picture whole in it. */
function expectWholePackage(pkg: string, source: string): void {
  const probe = (path: string) =>
    JSON.parse(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-count_packets',
        '-show_streams',
        '-of',
        'json',
        path,
      ]).toString(),
    ) as { streams: { codec_type: string; nb_read_packets?: string }[] };
  const videoPackets = (path: string) =>
    probe(path).streams.find((s) => s.codec_type === 'video')?.nb_read_packets;
  expect(videoPackets(pkg)).toBe(videoPackets(source));
  const audio = ffprobeJson(pkg).streams.filter((s) => s.codec_type === 'audio');
  // ffmpeg's Matroska reader leaves out the tag that says `und`.
  expect(audio.map((s) => s.tags?.language ?? 'und')).toEqual(['und', 'spa']);
  expect(audio.map((s) => s.tags?.title ?? s.tags?.handler_name)).toEqual(['Original', 'Spanish (dubbed)']);
}

describe.skipIf(!mountable).concurrent('a package on a full disk (a real size-limited tmpfs)', () => {
  it.each(['mkv', 'mp4'] as const)(
    '--package %s: the dubs fit, the package waits with "disk full: free N MiB in DIR" and is made once that is freed',
    { timeout: 120_000 },
    async (format) => {
      const work = tempDir('dubdesk-package-full-');
      const source = bigVideo(work, 'Réunion à Paris.mp4');
      const mount = tmpfs('48m') ?? '';
      let dub: ReturnType<typeof started> | null = null;
      try {
        const out = join(mount, 'Livrables été');
        mkdirSync(out);
        // Room for the dub's video (about the source's size) and half a package more.
        const filler = fillLeaving(mount, Math.round(1.5 * statSync(source).size));
        const key = `key-${format}`;
        const env = envFor(sb, join(work, 'home'), key);
        dub = started(
          ['dub', source, '--to', 'es', '--package', format, '--out', out, '--poll-interval', '0.1'],
          env,
          work,
        );
        const toFree = await saidToFree(dub, out);
        expect(toFree).toBeGreaterThanOrEqual(2);
        const waiting = await statusSays(env, out, toFree);
        expect(waiting.jobs.map((j) => j.state)).toEqual(['completed']);

        const pkg = join(out, `Réunion à Paris.multi.${format}`);
        expect(existsSync(pkg)).toBe(false);
        expect(dub.child.exitCode).toBeNull();
        expect(existsSync(join(out, 'Réunion à Paris.es.mp4'))).toBe(true);
        const before = spent(key);
        expect(before.dubs).toBe(1);

        // All but the last MiB freed: it says what is left, and goes on waiting.
        freeUp(filler, (toFree - 1) * MiB);
        expect(await saidToFree(dub, out, 1)).toBe(1);
        expect(dub.child.exitCode).toBeNull();

        freeUp(filler, MiB);
        const r = await dub.done;
        expect(r.stderr).not.toMatch(/gave up|✗|No space left|\n\s+at /);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain(`package: ${pkg} (es)`);
        expectWholePackage(pkg, source);
        expect(readdirSync(out).filter((f) => f.endsWith('.part'))).toEqual([]);
        expect((await status(env)).queue.packageDiskFull).toBeNull();
        expect(spent(key)).toEqual(before);
      } finally {
        if (dub && dub.child.exitCode === null) {
          dub.child.kill('SIGKILL');
          await dub.done;
        }
        spawnSync('umount', ['-l', mount]);
      }
    },
  );

  it(
    'dubdesk package FILE on a full disk says what to free where, waits, and makes it once there is room',
    { timeout: 120_000 },
    async () => {
      const work = tempDir('dubdesk-package-now-full-');
      const source = bigVideo(work, 'Bilan annuel.mp4');
      const mount = tmpfs('48m') ?? '';
      let pack: ReturnType<typeof started> | null = null;
      try {
        const out = join(mount, 'Résultats');
        mkdirSync(out);
        const env = envFor(sb, join(work, 'home'), 'key-package-now');
        const dubbed = await runCli(
          ['dub', source, '--to', 'es', '--out', out, '--poll-interval', '0.1'],
          env,
          work,
        );
        expect(dubbed.code, dubbed.stderr).toBe(0);
        const before = spent('key-package-now');
        const filler = fillLeaving(mount, Math.round(0.5 * statSync(source).size));

        pack = started(['package', source, '--format', 'mkv'], env, work);
        const toFree = await saidToFree(pack, out);
        await statusSays(env, out, toFree);
        const table = await runCli(['status'], env);
        expect(table.stdout).toContain(
          `A package waits: disk full: free ${toFree}.0 MiB in ${out}; it is made by itself once there is room (no charge).`,
        );
        expect(existsSync(join(out, 'Bilan annuel.multi.mkv'))).toBe(false);
        expect(pack.child.exitCode).toBeNull();

        freeUp(filler, toFree * MiB);
        const r = await pack.done;
        expect(r.stderr).not.toMatch(/✗|No space left|\n\s+at /);
        expect(r.code, r.stderr).toBe(0);
        const pkg = join(out, 'Bilan annuel.multi.mkv');
        expect(r.stderr).toContain(`package: ${pkg} (es)`);
        expectWholePackage(pkg, source);
        expect(spent('key-package-now')).toEqual(before);
      } finally {
        if (pack && pack.child.exitCode === null) {
          pack.child.kill('SIGKILL');
          await pack.done;
        }
        spawnSync('umount', ['-l', mount]);
      }
    },
  );
  it(
    'a run stopped while its package waits says so, and the next run makes it once there is room',
    { timeout: 120_000 },
    async () => {
      const work = tempDir('dubdesk-package-stopped-');
      const source = bigVideo(work, 'Conférence.mp4');
      const mount = tmpfs('48m') ?? '';
      let dub: ReturnType<typeof started> | null = null;
      try {
        const out = join(mount, 'Sorties');
        mkdirSync(out);
        const filler = fillLeaving(mount, Math.round(1.5 * statSync(source).size));
        const env = envFor(sb, join(work, 'home'), 'key-stopped');
        dub = started(
          ['dub', source, '--to', 'es', '--package', 'mkv', '--out', out, '--poll-interval', '0.1'],
          env,
          work,
        );
        const toFree = await saidToFree(dub, out);
        const before = spent('key-stopped');

        dub.child.kill('SIGINT');
        const stopped = await dub.done;
        expect(stopped.stderr).not.toMatch(/✗|\n\s+at /);
        expect(stopped.stderr).toContain(
          `… the package of Conférence.mp4 waits: disk full: free ${toFree}.0 MiB in ${out}; the next \`dubdesk run\` makes it once there is room (no charge)`,
        );

        truncateSync(filler, 0);
        const r = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env, work);
        expect(r.code, r.stderr).toBe(0);
        expectWholePackage(join(out, 'Conférence.multi.mkv'), source);
        expect(spent('key-stopped')).toEqual(before);
      } finally {
        if (dub && dub.child.exitCode === null) {
          dub.child.kill('SIGKILL');
          await dub.done;
        }
        spawnSync('umount', ['-l', mount]);
      }
    },
  );
});
