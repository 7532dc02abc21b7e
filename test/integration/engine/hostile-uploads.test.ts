/**
 * Servers that hold an upload without taking it: the idle limit of an upload counts bytes of the body that
 * leave, so bytes coming the other way (interim replies, a status line trickled a byte at a time) never keep
 * a stalled upload alive; interim replies are bounded in number, and the answer's deadline starts once the
 * body is sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { MAX_INTERIM_REPLIES } from '../../../electron/engine/api/transport';
import { tempDir } from '../../helpers/temp-dir';
import {
  CREATE_V2,
  DUB_V2,
  SHORT_LIMITS,
  failure,
  readBody,
  sleep,
  type Fixture,
  type Seen,
  serversClosedAfterEach,
} from '../../helpers/hostile';

const server = serversClosedAfterEach();
const MiB = 1024 * 1024;

const clients = (f: Fixture, limits = SHORT_LIMITS) =>
  createServiceClients({ baseUrl: f.url, legacyUrl: f.url, apiKey: 'k', limits });

async function bigFile(mb: number): Promise<string> {
  const path = join(tempDir(), 'in.mp4');
  await writeFile(path, Buffer.alloc(mb * MiB, 1));
  return path;
}

/** Each drip comes well within the idle limit; all of them together last 20 idle limits. */
const DRIP_MS = SHORT_LIMITS.idleMs / 3;
const DRIPS = 60;

/**
 * Takes the first chunk of the body and no more, then drips `drip` every DRIP_MS, DRIPS times, unless the
 * client hangs up first. `outlasted` says the client was still there after the last drip: it was held.
 */
function holding(drip: (req: IncomingMessage, res: ServerResponse) => void) {
  const state = { outlasted: false, drips: 0 };
  const handler = async (req: IncomingMessage, res: ServerResponse, seen: Seen) => {
    await new Promise<void>((resolve) =>
      req.once('data', (c: Buffer) => {
        seen.bodyBytes += c.length;
        req.pause();
        resolve();
      }),
    );
    for (; state.drips < DRIPS; state.drips++) {
      if (req.socket.destroyed) return;
      drip(req, res);
      await sleep(DRIP_MS);
    }
    state.outlasted = !req.socket.destroyed;
    req.socket.destroy();
  };
  return { state, handler };
}

const HOSTILE: [string, () => ReturnType<typeof holding>][] = [
  ['trickles 102 Processing', () => holding((_req, res) => res.writeProcessing())],
  [
    'trickles the bytes of its status line and headers',
    () => {
      const head = Buffer.from('HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nx-wait: ');
      let at = 0;
      return holding((req) => {
        req.socket.write(at < head.length ? head.subarray(at, at + 1) : 'w');
        at++;
      });
    },
  ],
  [
    'answers 100 Continue, again and again, and never reads',
    () => holding((_req, res) => res.writeContinue()),
  ],
];

describe('a server that holds an upload without taking its bytes', () => {
  describe.each(HOSTILE)('one that %s', (_name, make) => {
    it.each(['v2 create', 'pre-signed PUT'])('%s fails as a stall, and is not held', async (kind) => {
      const { state, handler } = make();
      const f = await server(handler);
      const path = await bigFile(48);
      const { v2, v1 } = clients(f);
      const e = await failure(
        kind === 'v2 create'
          ? v2.createFromFile(path, 'video/mp4', CREATE_V2)
          : v1.upload(`${f.url}/put?sig=1`, path, 'video/mp4'),
      );
      expect(e).toMatchObject({ kind: 'network', retry: 'wait' });
      expect((e as Error).message).toContain('no answer');
      // The client hung up while the server was still dripping: it was never held to the server's end.
      expect(state.outlasted).toBe(false);
      expect(state.drips).toBeLessThan(DRIPS);
      expect(f.seen[0]?.bodyBytes).toBeLessThan(48 * MiB);
    });
  });
});

describe('interim replies once the body is sent', () => {
  it('do not hold the answer: its deadline runs from the end of the body, whatever comes meanwhile', async () => {
    let drips = 0;
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      for (; drips < DRIPS && !req.socket.destroyed; drips++) {
        res.writeProcessing();
        await sleep(SHORT_LIMITS.answerMs / 4);
      }
    });
    const e = await failure(clients(f).v2.createFromFile(await bigFile(1), 'video/mp4', CREATE_V2));
    expect(e).toMatchObject({ kind: 'network' });
    expect((e as Error).message).toContain('no answer');
    expect(drips).toBeLessThan(DRIPS);
  });

  it(`are bounded in number: more than ${MAX_INTERIM_REPLIES} is a broken server`, async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      for (let i = 0; i <= MAX_INTERIM_REPLIES && !req.socket.destroyed; i++) res.writeProcessing();
      await sleep(SHORT_LIMITS.answerMs / 2);
      if (!req.socket.destroyed) {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify(DUB_V2));
      }
    });
    const e = await failure(clients(f).v2.createFromFile(await bigFile(1), 'video/mp4', CREATE_V2));
    expect(e).toMatchObject({ kind: 'protocol' });
    expect((e as Error).message).toContain('interim (1xx) replies');
  });

  it('a few are taken in stride', async () => {
    const f = await server(async (req, res, seen) => {
      res.writeContinue();
      await readBody(req, seen);
      for (let i = 0; i < 3; i++) res.writeProcessing();
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify(DUB_V2));
    });
    const dub = await clients(f).v2.createFromFile(await bigFile(1), 'video/mp4', CREATE_V2);
    expect(dub.id).toBe(DUB_V2.id);
  });
});

describe('the answer to an upload', () => {
  it('a 2xx before the whole file went out is not taken for an upload', async () => {
    // The status line at once; the rest of the answer once it has all the file.
    const f = await server(async (req, res, seen) => {
      res.writeHead(200);
      res.flushHeaders();
      await readBody(req, seen);
      res.end();
    });
    const e = await failure(clients(f).v1.upload(`${f.url}/put?sig=1`, await bigFile(32), 'video/mp4'));
    expect(e).toMatchObject({ kind: 'protocol' });
    expect(String(e)).toContain('answered HTTP 200 before the whole file was sent');
  });

  it('the status line and the rest of the answer each get their own deadline, not one shared', async () => {
    // Each part takes most of a 2 s limit; both together take longer.
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      await sleep(1400);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.flushHeaders();
      await sleep(1400);
      res.end(JSON.stringify(DUB_V2));
    });
    const limits = { ...SHORT_LIMITS, idleMs: 5_000, answerMs: 2_000 };
    const dub = await clients(f, limits).v2.createFromFile(await bigFile(1), 'video/mp4', CREATE_V2);
    expect(dub.id).toBe(DUB_V2.id);
  });
});
