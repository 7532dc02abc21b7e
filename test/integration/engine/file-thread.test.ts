import { execFile, execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type * as WorkerThreads from 'node:worker_threads';
import type * as ChildProcess from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { FileStalledError } from '../../../electron/engine/api/file-body';
import { FileThread, sendFile, type FileRequest } from '../../../electron/engine/api/file-thread';
import { Http } from '../../../electron/engine/api/http';
import { tempDir } from '../../helpers/engine';
import {
  CREATE_V2,
  DUB_V2,
  SHORT_LIMITS,
  failure,
  readBody,
  serversClosedAfterEach,
} from '../../helpers/hostile';

const server = serversClosedAfterEach();
const run = promisify(execFile);
const root = new URL('../../..', import.meta.url).pathname;

/**
 * A file thread whose first open never returns (for four seconds, in a system call that ending the thread
 * cannot cut short): what a read from a share that stopped answering does to the real one. It marks the
 * request as being read, as the real thread does.
 */
function blockingThread(load: NodeJS.Require): void {
  const { parentPort, workerData } = load('node:worker_threads') as typeof WorkerThreads;
  const { execFileSync } = load('node:child_process') as typeof ChildProcess;
  const reading = new Int32Array((workerData as { reading: SharedArrayBuffer }).reading);
  let blocked = false;
  parentPort?.on('message', (m: { type: string; id: number; parts: { path?: string }[] }) => {
    if (m.type !== 'send') return;
    if (m.parts.some((p) => p.path?.includes('stuck'))) {
      blocked = true;
      Atomics.store(reading, 0, m.id);
      execFileSync('sleep', ['4']);
      return;
    }
    // Any other file is refused at once, saying which thread it reached.
    const error = {
      name: 'Error',
      message: blocked ? 'the stuck thread' : 'a fresh thread',
      code: 'ECONNREFUSED',
    };
    parentPort.postMessage({ type: 'fail', id: m.id, error });
  });
  parentPort?.postMessage({ type: 'ready' });
}

async function fileOf(bytes: number, name = 'in.mp4'): Promise<string> {
  const path = join(tempDir(), name);
  await writeFile(path, Buffer.alloc(bytes, 7));
  return path;
}

const put = (url: string, path: string, size: number, more: Partial<FileRequest> = {}): FileRequest => ({
  url: new URL(url),
  method: 'PUT',
  headers: { 'content-length': String(size) },
  body: { length: size, parts: [{ path, size }] },
  connectMs: 2_000,
  idleMs: 60_000,
  ...more,
});

describe('a file thread stuck in a read', () => {
  it('fails what it holds as stalled, naming the file, and gives up after three such threads', async () => {
    const thread = new FileThread(blockingThread);
    const path = await fileOf(100, 'stuck-on-the-share.mp4');
    const e = await thread
      .send(put('http://127.0.0.1:9/put', path, 100, { idleMs: 300 }))
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FileStalledError);
    expect(String(e)).toContain(`reading ${path} stalled`);
    // Each send gets a new thread, until three are stuck: then files are not handed to a fourth.
    for (let i = 0; i < 2; i++)
      await expect(thread.send(put('http://127.0.0.1:9/put', path, 100, { idleMs: 300 }))).rejects.toThrow(
        FileStalledError,
      );
    await expect(thread.send(put('http://127.0.0.1:9/put', path, 100, { idleMs: 300 }))).rejects.toThrow(
      'reading earlier files stalled',
    );
  });

  it('a cancel is not kept waiting by it, and the next file goes to a new thread', async () => {
    const thread = new FileThread(blockingThread);
    const path = await fileOf(100, 'stuck.mp4');
    const stop = new AbortController();
    const sent = thread.send(put('http://127.0.0.1:9/put', path, 100, { signal: stop.signal }));
    setTimeout(() => stop.abort(new Error('the user canceled')), 50);
    await expect(sent).rejects.toThrow('the user canceled');
    // The thread is stuck on that file: the next one is not handed to it.
    const next = await thread
      .send(put('http://127.0.0.1:9/put', await fileOf(100, 'next.mp4'), 100))
      .catch((x: unknown) => x);
    expect(String(next)).toContain('a fresh thread');
  });
});

describe('the real file thread', () => {
  it('a FIFO in the file’s place is refused, whether it was there when measured or put there after', async () => {
    const fifo = join(tempDir(), 'pipe.mp4');
    execFileSync('mkfifo', [fifo]);
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200);
      res.end();
    });
    const clients = createServiceClients({
      baseUrl: f.url,
      legacyUrl: f.url,
      apiKey: 'k',
      limits: SHORT_LIMITS,
    });
    expect(String(await failure(clients.v1.upload(`${f.url}/put?sig=1`, fifo, 'video/mp4')))).toContain(
      `${fifo} is no longer a regular file`,
    );
    // Measured as a 10-byte file, a FIFO when opened: refused without waiting for a writer.
    const e = await failure(
      new Http({ limits: SHORT_LIMITS }).send(`${f.url}/put?sig=1`, {
        method: 'PUT',
        body: { length: 10, parts: [{ path: fifo, size: 10 }] },
        headers: { 'content-length': '10' },
        upload: true,
      }),
    );
    expect(String(e)).toContain(`${fifo} is no longer a regular file`);
    expect(f.seen.filter((s) => s.bodyBytes > 0)).toEqual([]);
  });

  it('an answer the engine does not take in holds the line (backpressure), instead of piling up', async () => {
    let written = 0;
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 1);
      while (!res.destroyed) await new Promise((r) => res.write(chunk, () => r((written += chunk.length))));
    });
    const path = await fileOf(1000);
    const answer = await sendFile(put(`${f.url}/put`, path, 1000));
    expect(answer.status).toBe(200);
    // Nobody reads the answer for a while: the service can fill the socket's buffers and the window, no more.
    await new Promise((r) => setTimeout(r, 1500));
    expect(written).toBeLessThan(32 * 1024 * 1024);
    answer.body.destroy();
  });

  it('a 2xx before the whole file went out is not taken for an upload', async () => {
    // The status line at once; the rest of the answer once it has all the file (a server that ends its
    // answer first also closes the line, and the client may hear the broken pipe before the status).
    const f = await server(async (req, res, seen) => {
      res.writeHead(200);
      res.flushHeaders();
      await readBody(req, seen);
      res.end();
    });
    const path = await fileOf(32 * 1024 * 1024);
    const e = await failure(
      createServiceClients({ baseUrl: f.url, legacyUrl: f.url, apiKey: 'k', limits: SHORT_LIMITS }).v1.upload(
        `${f.url}/put?sig=1`,
        path,
        'video/mp4',
      ),
    );
    expect(e).toMatchObject({ kind: 'protocol' });
    expect(String(e)).toContain('answered HTTP 200 before the whole file was sent');
  });

  it('the status line and the rest of the answer each get their own deadline, not one shared', async () => {
    // Each part takes 1.4 s of a 2 s limit: 2.8 s in all.
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      await new Promise((r) => setTimeout(r, 1400));
      res.writeHead(201, { 'content-type': 'application/json' });
      res.flushHeaders();
      await new Promise((r) => setTimeout(r, 1400));
      res.end(JSON.stringify(DUB_V2));
    });
    const path = await fileOf(1000);
    const limits = { ...SHORT_LIMITS, idleMs: 5_000, answerMs: 2_000 };
    const dub = await createServiceClients({
      baseUrl: f.url,
      legacyUrl: f.url,
      apiKey: 'k',
      limits,
    }).v2.createFromFile(path, 'video/mp4', CREATE_V2);
    expect(dub.id).toBe(DUB_V2.id);
  });

  it('once started, lets the process exit by itself when it has nothing to send', async () => {
    const script = join(tempDir(), 'ready.mts');
    await writeFile(
      script,
      `import { readyFileThread } from ${JSON.stringify(join(root, 'electron/engine/api/file-thread.ts'))};\n` +
        `await readyFileThread();\nconsole.log('ready');\n`,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe('ready');
  });
});
