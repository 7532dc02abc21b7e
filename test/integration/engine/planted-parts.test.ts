/**
 * Someone who can write into the output folder (a shared drive, a synced folder) plants entries where
 * Dubdesk writes its downloads: a link at `<result>.part` must never make a download write outside the
 * folder, nor leave a result that is a link. Any entry already at a name is taken; a part file a resume
 * finds is used only when it is Dubdesk's own (a plain file of this user's, with no other name).
 */
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  lchownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diskPartFiles, type PartFiles } from '../../../electron/engine/api/download';
import { openDubdesk, type DubdeskHost } from '../../../electron/engine/index';
import { fakeService, servingBytes, type FakeService } from '../../helpers/fake-service';
import { quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
let host: DubdeskHost | undefined;
afterEach(async () => {
  await host?.close();
  await service?.close();
  host = service = undefined;
});

const MB = 1024 * 1024;
const media = Buffer.concat([Buffer.from('\u0000\u0000\u0000\u0018ftypmp42'), randomBytes(2 * MB)]);

/** Dubs one video into `out` through `partFiles`; returns the job as it ended. */
async function dubJob(out: string, partFiles?: PartFiles, naming: 'suffix' | 'folders' = 'suffix') {
  service = await fakeService({ download: servingBytes(media) });
  host = openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: service.url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 5,
    ...(partFiles ? { partFiles } : {}),
  });
  const { added } = await host.api.add({
    inputs: [videoMp4(2, 'planted.mp4')],
    to: ['es'],
    outDir: out,
    naming,
  });
  expect(await host.run(quickRun())).toBe('done');
  return host.api.getJob({ id: added[0] ?? 0 });
}

/** Dubs one video into `out` through `partFiles`, to completion; returns where each result is. */
async function dubInto(out: string, partFiles?: PartFiles) {
  const job = await dubJob(out, partFiles);
  expect(job.state, JSON.stringify(job.error)).toBe('completed');
  return job.outputs.map((o) => ({ path: o.path, type: o.type }));
}

/** Outside the output folder: a secret of the user's, and a place a planted link points to. */
function outside() {
  const dir = tempDir();
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, 'the user’s own file');
  return { dir, secret, pointedAt: join(dir, 'stolen.mp4') };
}

function expectOnlyPlainResults(outputs: { path: string; type: string }[]) {
  for (const o of outputs) {
    expect(lstatSync(o.path).isFile(), o.path).toBe(true);
    expect(lstatSync(o.path).isSymbolicLink(), o.path).toBe(false);
    if (o.type === 'translated_mp4') expect(readFileSync(o.path).equals(media), o.path).toBe(true);
  }
}

describe('entries planted where downloads go', () => {
  it('a dangling link at <result>.part: the download writes nothing outside, and the result is a plain file', async () => {
    const out = tempDir();
    const away = outside();
    symlinkSync(away.pointedAt, join(out, 'planted.es.mp4.part'));
    symlinkSync(join(away.dir, 'subs.vtt'), join(out, 'planted.es.vtt.part'));
    const outputs = await dubInto(out);
    expect(readdirSync(away.dir)).toEqual(['secret.txt']);
    expectOnlyPlainResults(outputs);
    // The planted links are someone else's names: left as they are, never written through.
    expect(lstatSync(join(out, 'planted.es.mp4.part')).isSymbolicLink()).toBe(true);
  });

  it.each([
    ['a link to a file of the user’s', (part: string, secret: string) => symlinkSync(secret, part)],
    ['a hard link to a file of the user’s', (part: string, secret: string) => linkSync(secret, part)],
    ['a folder', (part: string) => mkdirSync(part)],
  ])(
    'a resumed part replaced by %s is not Dubdesk’s: nothing is appended to it, nothing settled',
    (_, plant) => resumeAfterSwap(plant),
  );

  // Only root can make a file another user owns.
  it.runIf(process.getuid?.() === 0)(
    'a resumed part replaced by a plain file of another user is not Dubdesk’s either (as root: chown)',
    () =>
      resumeAfterSwap((part) => {
        writeFileSync(part, Buffer.alloc(MB, 1));
        chownSync(part, 65534, 65534);
      }),
  );
});

describe('a language folder planted as another user’s link (as root: lchown)', () => {
  it.runIf(process.getuid?.() === 0)('is never written through: the job fails naming it', async () => {
    const out = tempDir();
    const away = outside();
    symlinkSync(away.dir, join(out, 'es'));
    lchownSync(join(out, 'es'), 65534, 65534);
    const job = await dubJob(out, undefined, 'folders');
    expect(job.state).toBe('failed');
    expect(job.error?.message).toContain(`reached through ${join(out, 'es')}, a link another user made`);
    expect(readdirSync(away.dir)).toEqual(['secret.txt']);
  });
});

/** The disk fills a megabyte in; while the job waits to resume, its part is swapped for what `plant` puts. */
async function resumeAfterSwap(plant: (part: string, secret: string) => void) {
  const out = tempDir();
  const away = outside();
  let planted = false;
  const swapping: PartFiles = {
    async open(path, append, expected) {
      const file = await diskPartFiles.open(path, append, expected);
      let size = 0;
      return {
        ...file,
        write: async (chunk) => {
          if (!planted && path.endsWith('.mp4.part') && size + chunk.length > MB) {
            planted = true;
            await file.write(chunk.subarray(0, MB - size));
            await file.close();
            rmSync(path);
            plant(path, away.secret);
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          }
          await file.write(chunk);
          size += chunk.length;
        },
      };
    },
  };
  const outputs = await dubInto(out, swapping);
  expect(planted).toBe(true);
  expect(readFileSync(away.secret, 'utf8')).toBe('the user’s own file');
  expect(readdirSync(away.dir)).toEqual(['secret.txt']);
  expectOnlyPlainResults(outputs);
  for (const o of outputs) expect(lstatSync(o.path).nlink, o.path).toBe(1);
}
