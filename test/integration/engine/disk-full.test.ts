import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, statfsSync, statSync } from 'node:fs';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diskPartFiles, type PartFiles } from '../../../electron/engine/api/download';
import type { FileIdentity } from '../../../electron/engine/files/own-file';
import { openDubdesk, type DubdeskHost } from '../../../electron/engine/index';
import { fakeService, servingBytes, type FakeService } from '../../helpers/fake-service';
import { quickRun, whenJob } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { canMountTmpfs, tmpfs } from '../../helpers/tmpfs';
import { waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';

const MB = 1024 * 1024;
const errno = (code: string) =>
  Object.assign(new Error(`${code}: refused by the test's disk, write`), { code, syscall: 'write' });

/** A disk that holds `room` bytes of any part file while `full`, then refuses with ENOSPC. */
class FillingDisk implements PartFiles {
  full = true;
  refusals = 0;
  constructor(private readonly room: number) {}

  async open(path: string, append: boolean, expected?: FileIdentity) {
    const file = await diskPartFiles.open(path, append, expected);
    let size = append ? (await stat(path)).size : 0;
    return {
      identity: file.identity,
      write: async (chunk: Buffer) => {
        if (this.full && size + chunk.length > this.room) {
          const fits = Math.max(0, this.room - size);
          await file.write(chunk.subarray(0, fits));
          size += fits;
          this.refusals++;
          throw errno('ENOSPC');
        }
        await file.write(chunk);
        size += chunk.length;
      },
      close: () => file.close(),
    };
  }
}

let service: FakeService | undefined;
let host: DubdeskHost | undefined;
let stop: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await stop?.();
  await host?.close();
  await service?.close();
  host = service = stop = undefined;
});

/** A dub whose video output is `media`, downloaded into `out` through `partFiles`. */
async function downloadInto(media: Buffer, out: string, partFiles?: PartFiles) {
  service = await fakeService({ download: servingBytes(media) });
  host = openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: service.url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 3,
    ...(partFiles ? { partFiles } : {}),
  });
  const { added } = await host.api.add({ inputs: [videoMp4(2, 'big.mp4')], to: ['es'], outDir: out });
  const controller = new AbortController();
  const running = host.run({ ...quickRun(), signal: controller.signal });
  stop = () => {
    controller.abort();
    return running.catch(() => null);
  };
  return { id: added[0] ?? 0, api: host.api, running };
}

const media = (bytes: number) =>
  Buffer.concat([Buffer.from('\u0000\u0000\u0000\u0018ftypmp42'), randomBytes(bytes)]);

describe('disk full while downloading', () => {
  it('waits with "disk full: free N MiB in DIR", keeps the .part, and resumes it when there is room', async () => {
    const bytes = media(3 * MB);
    const out = tempDir();
    const disk = new FillingDisk(MB);
    const { id, api, running } = await downloadInto(bytes, out, disk);
    const waiting = await whenJob(api, (j) => j.id === id && j.waiting?.code === 'disk');
    expect(waiting.state).toBe('downloading');
    expect(waiting.waiting?.message).toBe(
      `disk full: free ${Math.ceil((bytes.length - MB) / MB)}.0 MiB in ${out}`,
    );
    // It keeps waiting (never failing, never "the network") for as long as the disk stays full.
    await waitFor('three refusals', async () => (disk.refusals >= 3 ? true : undefined));
    const still = await api.getJob({ id });
    expect([still.state, still.waiting?.code, still.error]).toEqual(['downloading', 'disk', null]);
    expect((await api.totals()).offline).toBeNull();
    expect(statSync(join(out, 'big.es.mp4.part')).size).toBe(MB);

    disk.full = false;
    expect(await running).toBe('done');
    const done = await api.getJob({ id });
    expect(done.state).toBe('completed');
    expect((await readFile(join(out, 'big.es.mp4'))).equals(bytes)).toBe(true);
    expect(service?.downloads().at(-2)?.headers.range).toBe(`bytes=${MB}-`); // the video, resumed
    expect(done.history.map((h) => h.reason ?? '').join(' ')).not.toMatch(/network/);
    expect((await readdir(out)).sort()).toEqual(['big.es.mp4', 'big.es.vtt']);
  });

  it.each([
    [
      'EROFS',
      'disk',
      (out: string) => `${out} is on a read-only disk`,
      'Make the folder writable again (remount its disk read-write), or choose another output folder; then retry the job: a dub already made is not paid again.',
    ],
    [
      'EACCES',
      'permission',
      (out: string) => `cannot write to ${out} (EACCES)`,
      'Make the folder writable again, or choose another output folder; then retry the job: a dub already made is not paid again.',
    ],
  ])('%s fails the job at once with the remedy', async (code, contractCode, message, remedy) => {
    const out = tempDir();
    const refusing: PartFiles = {
      open: async () => {
        throw errno(code);
      },
    };
    const { id, api, running } = await downloadInto(media(1000), out, refusing);
    expect(await running).toBe('done');
    const job = await api.getJob({ id });
    expect(job.state).toBe('failed');
    expect(job.error).toEqual({ code: contractCode, message: message(out), remedy });
    expect(job.creditsCharged).toBe(4);
    // The failure stands out in the job's log: a warning, where its steps before it are information.
    const lines = (await api.jobLog({ id })).lines;
    expect(lines.filter((l) => l.message.includes(message(out))).map((l) => l.level)).toEqual(['warn']);
    const steps = lines.filter((l) => !l.message.includes(message(out)));
    expect([...new Set(steps.map((l) => l.level))]).toEqual(['info']);
  });
});

const mountable = canMountTmpfs();

describe.skipIf(!mountable)('disk full on a real size-limited folder (tmpfs)', () => {
  it('waits, keeps every byte received, and resumes byte-exact once space is freed', async () => {
    const mount = tmpfs('4m') ?? '';
    try {
      const out = join(mount, 'out');
      mkdirSync(out);
      const { bavail, bsize } = statfsSync(mount);
      const filler = join(mount, 'filler');
      await writeFile(filler, Buffer.alloc(bavail * bsize - 256 * 1024));
      const bytes = media(MB);
      const { id, api, running } = await downloadInto(bytes, out);
      const waiting = await whenJob(api, (j) => j.id === id && j.waiting?.code === 'disk');
      expect(waiting.waiting?.message).toMatch(new RegExp(`^disk full: free 1\\.0 MiB in ${out}$`));
      const kept = statSync(join(out, 'big.es.mp4.part')).size;
      expect(kept).toBeGreaterThan(0);
      expect((await readFile(join(out, 'big.es.mp4.part'))).equals(bytes.subarray(0, kept))).toBe(true);

      await rm(filler);
      expect(await running).toBe('done');
      expect((await api.getJob({ id })).state).toBe('completed');
      expect((await readFile(join(out, 'big.es.mp4'))).equals(bytes)).toBe(true);
      expect(service?.downloads().some((s) => s.headers.range === `bytes=${kept}-`)).toBe(true);
    } finally {
      await stop?.();
      await host?.close();
      host = stop = undefined;
      spawnSync('umount', ['-l', mount]);
    }
  });
});
