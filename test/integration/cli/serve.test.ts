import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebBridge, type WebBridge } from '../../../renderer/src/bridge/web';
import { CLI, runCli, startCli, type CliResult } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';
import { exchangeCode as exchange, firstLine, raw, serveEnv } from '../../helpers/serve';

const URL_LINE = /^http:\/\/127\.0\.0\.1:(\d+)\/#code=([A-Za-z0-9_-]{43})$/;

interface Running {
  port: number;
  token: string;
  client: WebBridge;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<CliResult>;
}

const running: Running[] = [];

async function serve(args: string[], home: string): Promise<Running> {
  const { child, done } = startCli(['serve', '--port', '0', '--no-open', ...args], serveEnv(home));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const line = await firstLine(child);
  const m = URL_LINE.exec(line);
  expect(m, line).not.toBeNull();
  const port = Number(m?.[1]);
  const { token } = await exchange(port, m?.[2] ?? '');
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const r: Running = {
    port,
    token: token ?? '',
    client: createWebBridge({ baseUrl: `http://127.0.0.1:${port}`, token: token ?? '' }),
    stderr: () => stderr,
    stop: async (signal = 'SIGINT') => {
      r.client.close();
      child.kill(signal);
      return done;
    },
  };
  running.push(r);
  return r;
}

describe('dubdesk serve as a command', () => {
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
  });

  it('prints the address with a one-time code first, serves the app, works the queue, and stops on Ctrl+C with 130', async () => {
    const s = await serve(['--sandbox'], tempDir());
    const page = await raw(s.port, 'GET', '/', { headers: { 'sec-fetch-site': 'none' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const html = page.body.toString();
    expect(html).toContain('<div id="root"></div>');
    const script = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await raw(s.port, 'GET', `/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);

    expect(await s.client.appInfo()).toMatchObject({ name: 'Dubdesk', shell: 'web' });
    expect((await s.client.getSettings()).service.mode).toBe('sandbox');
    expect(s.stderr()).toMatch(/sandbox/);
    expect(s.stderr()).not.toContain(s.token);

    // The queue is worked in the same process, without being asked.
    const { added } = await s.client.add({
      inputs: [videoMp4(2, 'serve-cli.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    const id = added[0] ?? 0;
    await waitFor('the job to complete', async () =>
      (await s.client.getJob({ id })).state === 'completed' ? true : undefined,
    );
    await s.client.ready;
    const dub = await fetch(s.client.mediaUrl(id, 'dub'), { headers: { range: 'bytes=0-15' } });
    expect(dub.status).toBe(206);

    const result = await s.stop('SIGINT');
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/Finishing the current step/);
    expect(result.stdout.trim().split('\n')).toHaveLength(1); // the address, and nothing else
  });

  it('keeps serving when another process works the queue, and says so', async () => {
    const home = tempDir();
    const first = await serve(['--sandbox'], home);
    await waitFor('the first to work the queue', async () =>
      (await first.client.totals()).running ? true : undefined,
    );
    const second = await serve([], home); // no --sandbox: no key configured, the sandbox all the same
    await waitFor('the second to say it does not work the queue', async () =>
      /Not working the queue: another Dubdesk/.test(second.stderr()) ? true : undefined,
    );
    // Said once, and never "Starting to work the queue." before it: the run had not got the queue.
    expect(second.stderr()).not.toMatch(/Working the queue|Starting to work/);
    expect(second.stderr().match(/Not working the queue/g)).toHaveLength(1);
    expect((await second.client.totals()).running).toBe(true);
    expect((await second.client.getSettings()).service.mode).toBe('sandbox');
    expect((await second.stop('SIGTERM')).code).toBe(130);
    expect((await first.stop('SIGINT')).code).toBe(130);
  });

  it('opens the browser on a private redirect file: no command line holds the code or the token', async () => {
    const dir = tempDir();
    const home = tempDir();
    const record = join(dir, 'opener-argv.txt');
    // The opener: `xdg-open` itself (first on PATH), or the browser the bundled xdg-open starts ($BROWSER).
    const opener = join(dir, 'xdg-open');
    writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$0" "$@" >> '${record}'\n`);
    chmodSync(opener, 0o755);
    const { DISPLAY: _d, WAYLAND_DISPLAY: _w, XDG_CURRENT_DESKTOP: _x, ...env } = serveEnv(home);
    const { child, done } = startCli(['serve', '--sandbox', '--port', '0'], {
      ...env,
      PATH: `${dir}:${env.PATH ?? ''}`,
      BROWSER: opener,
    });
    try {
      const line = await firstLine(child);
      const port = Number(URL_LINE.exec(line)?.[1]);
      const argv = await waitFor('the opener to be started', async () =>
        existsSync(record) && readFileSync(record, 'utf8').includes('.html')
          ? readFileSync(record, 'utf8')
          : undefined,
      );
      // What every local user can read (`ps`): a private file's file:// address, not serve's, no code.
      expect(argv).not.toContain('code=');
      expect(argv).not.toContain('127.0.0.1');
      const file = fileURLToPath(/(file:\/\/\S+\/open-[A-Za-z0-9_-]+\.html)/.exec(argv)?.[1] ?? 'file:///');
      expect(file.startsWith(join(home, 'serve'))).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, 'serve')).mode & 0o777).toBe(0o700);
      const opened = /#code=([A-Za-z0-9_-]{43})/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
      // Its own code, not the printed one: each works once.
      expect(opened).not.toBe('');
      expect(line).not.toContain(opened);
      const first = await exchange(port, opened);
      expect(first.status).toBe(200);
      expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(argv).not.toContain(first.token ?? 'no token');
      expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).not.toContain(first.token ?? 'no token');
      // Traded, the code is worth nothing, and its file is gone.
      expect((await exchange(port, opened)).status).toBe(401);
      await waitFor('the redirect file to be deleted', async () => (existsSync(file) ? undefined : true));
    } finally {
      child.kill('SIGINT');
      await done;
    }
  });

  it.skipIf(spawnSync('tmux', ['-V']).status !== 0)(
    'in a terminal, Enter prints a new one-time address; stopped, it leaves nothing for `--link` to find',
    async () => {
      const home = tempDir();
      const env = serveEnv(home);
      const tmux = (...args: string[]) =>
        promisify(execFile)('tmux', ['-L', `dubdesk-serve-${process.pid}`, ...args], { env });
      const command = [process.execPath, CLI, 'serve', '--sandbox', '--port', '0', '--no-open']
        .map((a) => `'${a}'`)
        .join(' ');
      await tmux('new-session', '-d', '-x', '120', '-y', '40', `${command}; echo "EXIT=$?"; sleep 600`);
      const screen = async () => (await tmux('capture-pane', '-p', '-J')).stdout;
      const addresses = async () => (await screen()).split('\n').filter((l) => URL_LINE.test(l.trim()));
      try {
        await waitFor('the first address, and what Enter does', async () =>
          // Its words may be wrapped to the window's width.
          /`dubdesk serve --link`\s+or\s+press\s+Enter\s+here/.test(await screen()) ? true : undefined,
        );
        expect(await addresses()).toHaveLength(1);
        expect(readdirSync(join(home, 'serve')).filter((f) => f.startsWith('serve-'))).toHaveLength(1);
        await tmux('send-keys', 'Enter');
        const two = await waitFor('a second address', async () => {
          const found = await addresses();
          return found.length === 2 ? found : undefined;
        });
        expect(two[0]).not.toBe(two[1]);
        expect(new URL(two[0] ?? '').origin).toBe(new URL(two[1] ?? '').origin);
        await tmux('send-keys', 'C-c');
        await waitFor('serve to stop', async () =>
          (await screen()).includes('EXIT=130') ? true : undefined,
        );
        expect(readdirSync(join(home, 'serve')).filter((f) => f.startsWith('serve-'))).toEqual([]);
        const link = await runCli(['serve', '--link'], env);
        expect(link.code).toBe(2);
        expect(link.stderr).toMatch(/no `dubdesk serve` is running/);
      } finally {
        await tmux('kill-server').catch(() => null);
      }
    },
  );

  it('refuses to listen anywhere but 127.0.0.1', async () => {
    const { done } = startCli(['serve', '--host', '0.0.0.0', '--no-open'], serveEnv(tempDir()));
    const result = await done;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/127\.0\.0\.1 only/);
    expect(result.stdout).toBe('');
  });
});
