/**
 * Issue 22.15: one rule for the media both faces serve (the desktop's `dubdesk-media:` protocol and
 * `serve`'s `/media`): the job's own regular file, never what a symlink points at, never a FIFO (whose open
 * would block until a writer came), never a folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, closeSync, constants, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/contract/jobs';
import { mediaRoutes } from '../../../electron/web/media';
import { mediaProtocolHandler } from '../../../electron/main/media-protocol';
import { tempDir } from '../../helpers/temp-dir';

const dir = tempDir();
const real = join(dir, 'clip.es.mp4');
writeFileSync(real, Buffer.alloc(64, 1));
const linked = join(dir, 'linked.es.mp4');
symlinkSync(real, linked);
const outside = join(dir, 'passwd.es.mp4');
symlinkSync('/etc/passwd', outside);
const fifo = join(dir, 'pipe.es.mp4');
execFileSync('mkfifo', [fifo]);
const folder = join(dir, 'folder.es.mp4');
mkdirSync(folder);

afterAll(() => {
  // Were a FIFO ever opened blocking, a writer lets that thread go so the worker can end.
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    /* nobody is reading it: nothing was left blocked */
  }
});

const apiFor = (path: string) =>
  ({
    getJob: async () =>
      ({
        id: 7,
        state: 'completed',
        source: '/nowhere/source.mp4',
        sourceKind: 'file',
        sourceType: 'video/mp4',
        outputs: [{ type: 'translated_mp4', path, bytes: 64 }],
      }) as unknown as JobView,
  }) as never;

/** One GET of job 7's dub through a face: its status. */
type Face = (path: string) => Promise<number>;

const desktop: Face = async (path) =>
  (await mediaProtocolHandler(apiFor(path))(new Request('dubdesk-media://job/7/dub'))).status;

const serve: Face = async (path) => {
  const app = Fastify();
  mediaRoutes(app, apiFor(path));
  try {
    return (await app.inject({ method: 'GET', url: '/media/7/dub' })).statusCode;
  } finally {
    await app.close();
  }
};

describe.each([
  ['the desktop media protocol', desktop],
  ["serve's /media", serve],
])('%s', (_name, get) => {
  it('serves the job’s own regular file', async () => {
    expect(await get(real)).toBe(200);
  });

  it('refuses a symlink where the output was, wherever it points', async () => {
    expect(await get(linked)).toBe(404);
    expect(await get(outside)).toBe(404);
  });

  it('refuses a FIFO without waiting for a writer, and a folder', async () => {
    expect(await get(fifo)).toBe(404);
    expect(await get(folder)).toBe(404);
  });
});
