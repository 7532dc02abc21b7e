import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoredFile } from '../../electron/sandbox/stored-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dubdesk-stored-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Sends `parts` as a stream would, in uneven chunks, and returns what ended up on disk. */
async function store(parts: Buffer[], chunk = 50_000): Promise<{ path: string; bytes: Buffer }> {
  const whole = Buffer.concat(parts);
  const chunks: Buffer[] = [];
  for (let at = 0; at < whole.length; at += chunk) chunks.push(whole.subarray(at, at + chunk));
  const path = join(dir, 'stored');
  await pipeline(Readable.from(chunks), new StoredFile(path));
  return { path, bytes: readFileSync(path) };
}

describe('StoredFile: what the sandbox keeps of an upload', () => {
  it.each([
    ['data, zeros, data', [randomBytes(300_000), Buffer.alloc(2_000_000), randomBytes(123_457)]],
    ['trailing zeros', [randomBytes(70_000), Buffer.alloc(3_000_001)]],
    ['leading zeros', [Buffer.alloc(1_500_000), randomBytes(9)]],
    ['all zeros', [Buffer.alloc(4 * 1024 * 1024 + 17)]],
    ['one zero byte in data', [randomBytes(1000), Buffer.alloc(1), randomBytes(1000)]],
    ['nothing', []],
  ])('keeps the same bytes: %s', async (_name, parts) => {
    const sent = Buffer.concat(parts);
    const { bytes } = await store(parts);
    expect(bytes.length).toBe(sent.length);
    expect(sha(bytes)).toBe(sha(sent));
  });

  it('stores identical bytes whatever the chunking', async () => {
    const parts = [randomBytes(200_000), Buffer.alloc(1_000_000), randomBytes(5)];
    const sent = sha(Buffer.concat(parts));
    for (const chunk of [4096, 65_536, 1_048_576, 10_000_000])
      expect(sha((await store(parts, chunk)).bytes)).toBe(sent);
  });

  it('stores identical bytes sent one byte at a time', async () => {
    const parts = [randomBytes(3000), Buffer.alloc(70_000), randomBytes(3)];
    expect(sha((await store(parts, 1)).bytes)).toBe(sha(Buffer.concat(parts)));
  });

  it.runIf(process.platform === 'linux')(
    'leaves a run of zeros as a hole, not as written pages',
    async () => {
      const { path } = await store([randomBytes(4096), Buffer.alloc(64 * 1024 * 1024), randomBytes(4096)]);
      const st = statSync(path);
      expect(st.size).toBe(64 * 1024 * 1024 + 8192);
      expect(st.blocks * 512).toBeLessThan(8 * 1024 * 1024);
    },
  );

  it('reports a file it cannot open as an error of the stream', async () => {
    const path = join(dir, 'missing-folder', 'stored');
    await expect(pipeline(Readable.from([Buffer.from('x')]), new StoredFile(path))).rejects.toThrow(/ENOENT/);
  });
});
