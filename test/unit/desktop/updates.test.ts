/**
 * Updates (issue 24.3) against a generic-provider feed on loopback: a `latest-linux.yml` and the file it
 * names. electron-updater itself runs (its Linux .deb updater, with Node's HTTP in place of Electron's net,
 * the one part of it that needs Electron): it reads the feed, finds the newer version, downloads the file in
 * the background and checks its sha512. Installing on quit needs the packaged app and is not run here.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  configureRequestOptions,
  configureRequestUrl,
  HttpExecutor,
  type DownloadOptions,
} from 'builder-util-runtime';
import { AppImageUpdater, DebUpdater } from 'electron-updater';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { signingOf, UNSIGNED_MAC, updateLimits } from '../../../electron/main/update-limits';
import {
  CANNOT_INSTALL,
  CHECK_EVERY_MS,
  RELEASES_URL,
  updateMessage,
  Updates,
  type UpdateState,
} from '../../../electron/main/updates';
import { tempDir } from '../../helpers/temp-dir';

/** electron-updater's HTTP over Node's http (in the app it is Electron's net, in the app's session). */
class NodeExecutor extends HttpExecutor<ClientRequest> {
  /** As electron-updater's own executor downloads (its `download`), over this class's requests. */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error == null ? resolve(destination) : reject(error)),
          responseHandler: null,
        },
        0,
      );
    });
  }

  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    const req = request(options as Parameters<typeof request>[0]);
    req.on('response', callback);
    return req;
  }
}

const PACKAGE = Buffer.alloc(200_000, 7);
let server: Server;
let feed = '';
const seen: string[] = [];
const latest = '9.9.9';

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url?.startsWith('/latest-linux.yml')) {
      res.setHeader('content-type', 'text/yaml');
      const sha512 = createHash('sha512').update(PACKAGE).digest('base64');
      res.end(
        [
          `version: ${latest}`,
          'files:',
          `  - url: dubdesk_${latest}_amd64.deb`,
          `    sha512: ${sha512}`,
          `    size: ${PACKAGE.length}`,
          `path: dubdesk_${latest}_amd64.deb`,
          `sha512: ${sha512}`,
          "releaseDate: '2026-11-24T12:00:00.000Z'",
          '',
        ].join('\n'),
      );
    } else if (req.url === `/dubdesk_${latest}_amd64.deb`) {
      res.setHeader('content-length', String(PACKAGE.length));
      res.end(PACKAGE);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  feed = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function updaterFor(version: string, Kind: typeof DebUpdater | typeof AppImageUpdater = DebUpdater) {
  const dir = tempDir();
  // What electron-builder writes into a packaged app's resources (its publish settings).
  writeFileSync(
    join(dir, 'app-update.yml'),
    `provider: generic\nurl: ${feed}\nupdaterCacheDirName: dubdesk-updater\n`,
  );
  const onQuit = vi.fn();
  const updater = new Kind(undefined, {
    version,
    name: 'Dubdesk',
    isPackaged: true,
    appUpdateConfigPath: join(dir, 'app-update.yml'),
    userDataPath: dir,
    baseCachePath: dir,
    whenReady: async () => {},
    relaunch: () => {},
    quit: () => {},
    onQuit,
  });
  // Protected in its types; in the app it is set from Electron's net when no AppAdapter is passed.
  (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeExecutor();
  updater.logger = null;
  // After the executor: the feed's provider takes the executor it finds when the feed is set.
  updater.setFeedURL({ provider: 'generic', url: feed });
  return { updater, dir, onQuit };
}

const until = (updates: Updates, test: (s: UpdateState) => boolean) =>
  vi.waitFor(
    () => {
      if (!test(updates.state)) throw new Error(`still ${JSON.stringify(updates.state)}`);
    },
    { timeout: 30_000, interval: 50 },
  );

describe('updates', () => {
  it('checks at start, downloads the newer version in the background, then waits for quit to install', async () => {
    seen.length = 0;
    const { updater, dir, onQuit } = updaterFor('0.1.0');
    const every = vi.fn((_fn: () => void, _ms: number) => () => {});
    const updates = new Updates(updater, { packaged: true, current: '0.1.0', every });
    updates.start();
    await until(updates, (s) => s.status === 'ready');
    expect(updates.state).toMatchObject({ current: '0.1.0', available: '9.9.9', error: null });
    expect(seen.some((u) => u.startsWith('/latest-linux.yml'))).toBe(true);
    expect(seen).toContain('/dubdesk_9.9.9_amd64.deb');
    // Downloaded where electron-updater keeps pending updates, its sha512 checked; installed on quit.
    const pending = join(dir, 'dubdesk-updater', 'pending', 'dubdesk_9.9.9_amd64.deb');
    expect(existsSync(pending) && readFileSync(pending).equals(PACKAGE)).toBe(true);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(onQuit).toHaveBeenCalled();
    expect(updateMessage(updates.state)).toEqual({
      message: 'Dubdesk 9.9.9 is ready',
      detail: 'You have Dubdesk 0.1.0. The new version is installed when you quit Dubdesk.',
    });
  });

  it('checks again every 6 hours', async () => {
    const { updater } = updaterFor('9.9.9');
    const repeats: [() => void, number][] = [];
    const updates = new Updates(updater, {
      packaged: true,
      current: '9.9.9',
      every: (fn, ms) => {
        repeats.push([fn, ms]);
        return () => {};
      },
    });
    updates.start();
    expect(repeats.map(([, ms]) => ms)).toEqual([6 * 60 * 60 * 1000]);
    expect(CHECK_EVERY_MS).toBe(21_600_000);
    await until(updates, (s) => s.status === 'up-to-date');
    seen.length = 0;
    repeats[0]?.[0]();
    await vi.waitFor(() => expect(seen.filter((u) => u.startsWith('/latest-linux.yml'))).toHaveLength(1));
  });

  it('says "up to date" with the version after a manual check when there is nothing newer', async () => {
    const { updater } = updaterFor('9.9.9');
    const updates = new Updates(updater, { packaged: true, current: '9.9.9' });
    const found = await updates.check();
    expect(found).toMatchObject({ status: 'up-to-date', current: '9.9.9', available: null });
    expect(updateMessage(found)).toEqual({
      message: 'Dubdesk is up to date',
      detail: 'You have Dubdesk 9.9.9.',
    });
  });

  it('reports a feed it cannot read as a failed check, not a crash', async () => {
    const { updater } = updaterFor('0.1.0');
    updater.setFeedURL({ provider: 'generic', url: `${feed}/missing` });
    const updates = new Updates(updater, { packaged: true, current: '0.1.0' });
    const found = await updates.check();
    expect(found.status).toBe('failed');
    expect(found.error).toMatch(/404|latest-linux\.yml/);
  });

  it('is off in an unpackaged run: no check, no request, and the menu says why', async () => {
    seen.length = 0;
    const { updater } = updaterFor('0.1.0');
    const every = vi.fn(() => () => {});
    const updates = new Updates(updater, { packaged: false, current: '0.1.0', every });
    updates.start();
    expect(await updates.check()).toMatchObject({ status: 'off' });
    expect(every).not.toHaveBeenCalled();
    expect(seen).toEqual([]);
    expect(updateMessage(updates.state).message).toBe('Updates are off');
  });

  it('a Linux folder that is no AppImage nor package (a --dir build) says so, instead of "Checking…" for ever', async () => {
    seen.length = 0;
    const appImage = process.env.APPIMAGE;
    delete process.env.APPIMAGE;
    try {
      const { updater } = updaterFor('0.1.0', AppImageUpdater);
      const updates = new Updates(updater, { packaged: true, current: '0.1.0', every: () => () => {} });
      updates.start();
      await until(updates, (s) => s.status !== 'idle' && s.status !== 'checking');
      expect(updates.state).toMatchObject({ status: 'manual', reason: CANNOT_INSTALL });
      expect(updateMessage(await updates.check())).toEqual({
        message: 'Updates are not installed automatically',
        detail: `You have Dubdesk 0.1.0. ${CANNOT_INSTALL} Download new versions from ${RELEASES_URL}.`,
      });
      expect(seen).toEqual([]);
    } finally {
      if (appImage !== undefined) process.env.APPIMAGE = appImage;
    }
  });

  it('an unsigned Mac build never downloads an update it cannot install, and says why and where to get one', async () => {
    seen.length = 0;
    const { updater } = updaterFor('0.1.0');
    const every = vi.fn(() => () => {});
    const codesign = vi.fn(
      async () => 'Executable=/Applications/Dubdesk.app/Contents/MacOS/Dubdesk\nSignature=adhoc\n',
    );
    const updates = new Updates(updater, {
      packaged: true,
      current: '0.1.0',
      every,
      unavailable: () => updateLimits('darwin', '/Applications/Dubdesk.app/Contents/MacOS/Dubdesk', codesign),
    });
    updates.start();
    await until(updates, (s) => s.status === 'manual');
    expect(codesign).toHaveBeenCalledWith('/usr/bin/codesign', [
      '-dv',
      '--verbose=2',
      '/Applications/Dubdesk.app',
    ]);
    expect(updates.state.reason).toBe(UNSIGNED_MAC);
    expect(updateMessage(await updates.check()).detail).toContain(
      `Download new versions from ${RELEASES_URL}.`,
    );
    expect(seen).toEqual([]);
  });

  it('reads the Mac signing from codesign: Developer ID, ad hoc, none; only the first installs updates', async () => {
    expect(signingOf('Authority=Developer ID Application: Dubdesk (TEAM123)\nTeamIdentifier=TEAM123')).toBe(
      'developer-id',
    );
    expect(signingOf('Signature=adhoc\nTeamIdentifier=not set')).toBe('ad-hoc');
    expect(signingOf('/Applications/Dubdesk.app: code object is not signed at all')).toBe('unsigned');
    const answering = (text: string) => async () => text;
    expect(
      await updateLimits(
        'darwin',
        '/A.app/Contents/MacOS/A',
        answering('Authority=Developer ID Application: X'),
      ),
    ).toBe(null);
    expect(
      await updateLimits('darwin', '/A.app/Contents/MacOS/A', answering('code object is not signed at all')),
    ).toBe(UNSIGNED_MAC);
    expect(await updateLimits('win32', 'C:\\Dubdesk.exe', answering(''))).toBe(null);
  });

  it('points at the releases electron-builder publishes to', () => {
    const config = parse(readFileSync(join(__dirname, '../../../electron-builder.yml'), 'utf8')) as {
      publish: { owner: string; repo: string };
    };
    expect(RELEASES_URL).toBe(`https://github.com/${config.publish.owner}/${config.publish.repo}/releases`);
  });
});
