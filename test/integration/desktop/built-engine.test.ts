/**
 * The engine as the app ships it: the built engine.cjs, started under Node with a stand-in for Electron's
 * parent port, in an app folder laid out as a package's (issue 30, review item 4 and "bundles never
 * executed"). It opens its queue, does a real batch against the built-in sandbox and stops; without its
 * platform's watcher package, as a package built for the other processor was, it says why on stderr.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FromEngine, ToEngine } from '../../../electron/main/engine-protocol';
import { appFolder, forkBuiltEngine, hostNativePackages } from '../../helpers/built-app';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

function talk(entry: string) {
  const engine = forkBuiltEngine(entry, { ...process.env, DUBDESK_KEY_STORE: 'file' });
  const heard: FromEngine[] = [];
  let stderr = '';
  engine.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  engine.on('message', (m) => heard.push(m));
  const exited = once(engine.child, 'exit') as Promise<[number | null]>;
  const next = <T extends FromEngine['type']>(
    type: T,
    test: (m: FromEngine & { type: T }) => boolean = () => true,
  ) =>
    new Promise<FromEngine & { type: T }>((resolve, reject) => {
      const look = (m: FromEngine) => {
        if (m.type === type && test(m as FromEngine & { type: T })) resolve(m as FromEngine & { type: T });
      };
      heard.forEach(look);
      engine.on('message', look);
      void exited.then(([code]) =>
        reject(new Error(`the engine exited (${code}) before "${type}": ${stderr}`)),
      );
    });
  let id = 0;
  const call = async (method: string, arg?: unknown) => {
    const asked = ++id;
    engine.postMessage({ type: 'call', id: asked, method, arg } as ToEngine);
    const { reply } = await next('reply', (m) => m.id === asked);
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.value;
  };
  return { engine, next, call, exited, stderr: () => stderr };
}

const init = (home: string): ToEngine => ({
  type: 'init',
  init: { home, appVersion: '0.1.0', keyStore: 'file', sandbox: { pipelineSeconds: 0.2, balance: 1000 } },
});

describe('the built engine bundle', () => {
  it('opens, dubs a file with the sandbox, and stops cleanly', async () => {
    const app = appFolder();
    const { engine, next, call, exited } = talk(join(app, 'dist', 'engine.cjs'));
    engine.postMessage(init(tempDir()));
    await next('ready');
    const source = videoMp4(2, 'built-engine.mp4');
    const added = (await call('add', { inputs: [source], to: ['es'], outDir: tempDir() })) as {
      added: number[];
    };
    const id = added.added[0];
    await next(
      'event',
      (m) => m.event.type === 'job' && m.event.job.id === id && m.event.job.state === 'completed',
    );
    engine.postMessage({ type: 'stop', graceMs: 1000 });
    await next('stopped');
    expect((await exited)[0]).toBe(0);
  });

  it('without its platform’s watcher package, fails at load and says which package is missing', async () => {
    const watcher = hostNativePackages().find((p) => p.startsWith('@parcel/watcher-'));
    expect(watcher).toBeDefined();
    const app = appFolder([watcher ?? '']);
    const { engine, exited, stderr, next } = talk(join(app, 'dist', 'engine.cjs'));
    engine.postMessage(init(tempDir()));
    await expect(next('ready')).rejects.toThrow(/exited/);
    expect((await exited)[0]).not.toBe(0);
    expect(stderr()).toContain(`No prebuild or local build of @parcel/watcher found. Tried ${watcher}`);
  });
});
