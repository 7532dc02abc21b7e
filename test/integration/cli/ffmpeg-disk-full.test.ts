import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, statfsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { waitFor } from '../../helpers/http';
import { ffprobeJson } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';
import { canMountTmpfs, tmpfs } from '../../helpers/tmpfs';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const mountable = canMountTmpfs();

/** A 10-second 640x360 talk of a few MB: its picture is what the rebuild and the package copy. */
function bigTalk(dir: string): string {
  const path = join(dir, 'talk à Paris.mp4');
  execFileSync('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25',
    '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', '10', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '1M', '-c:a', 'aac', '-shortest', path,
  ]); // prettier-ignore
  return path;
}

const free = (dir: string) => {
  const { bavail, bsize } = statfsSync(dir);
  return bavail * bsize;
};

interface Waiting {
  id: number;
  state: string;
  waiting: { code: string; message: string } | null;
}

describe.skipIf(!mountable)('ffmpeg on a full disk (a real size-limited tmpfs)', () => {
  it(
    'the rebuild waits with "disk full: free N MiB in DIR", then goes on by itself, and the package is made',
    {
      timeout: 300_000,
    },
    async () => {
      const work = tempDir('dubdesk-ffmpeg-full-');
      const source = bigTalk(work);
      const mount = tmpfs('16m') ?? '';
      let dub: ReturnType<typeof startCli> | null = null;
      try {
        const out = join(mount, 'out');
        mkdirSync(out);
        // Room for the subtitles, none for the video made here.
        const filler = join(mount, 'filler');
        writeFileSync(filler, Buffer.alloc(free(mount) - 64 * 1024));
        const env = envFor(sb, join(work, 'home'));
        dub = startCli(
          [
            'dub',
            source,
            '--to',
            'es',
            '--send',
            'audio',
            '--package',
            'mkv',
            '--out',
            out,
            '--poll-interval',
            '0.1',
          ],
          env,
          work,
        );
        // The command's own line says when the rebuild waits for room; then status says the same.
        let said = '';
        dub.child.stderr?.on('data', (d: Buffer) => (said += d.toString()));
        await waitFor('the rebuild to wait for room', async () =>
          /^ {2}#\d+ .* → es: disk full: free /m.test(said) ? true : undefined,
        );
        const jobs = (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: Waiting[] })
          .jobs;
        const job = jobs.find((j) => j.waiting?.code === 'disk');
        if (!job) throw new Error(`status --json names no job waiting for room: ${JSON.stringify(jobs)}`);
        expect(job.waiting?.message).toMatch(new RegExp(`^disk full: free \\d+\\.\\d MiB in ${out}$`));

        truncateSync(filler, 0);
        const r = await dub.done;
        expect(r.stderr).not.toMatch(/gave up|✗|No space left/);
        expect(r.code, r.stderr).toBe(0);
        const pkgPath = join(out, 'talk à Paris.multi.mkv');
        expect(r.stderr).toContain(`package: ${pkgPath}`);
        const audio = ffprobeJson(pkgPath).streams.filter((s) => s.codec_type === 'audio');
        expect(audio).toHaveLength(2);
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
