import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

const run = promisify(execFile);
const SANDBOX_DOC = fileURLToPath(new URL('../../../docs/sandbox.md', import.meta.url));

let stop: () => void = () => {};
let port = 0;
let firstLine = '';

beforeAll(async () => {
  const { child } = startCli(
    ['sandbox', '--port', '0', '--pipeline-seconds', '0.5', '--user', 'second-key:50'],
    process.env,
  );
  stop = () => child.kill('SIGTERM');
  firstLine = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) resolve(buf.split('\n')[0] ?? '');
    });
    child.on('exit', () => reject(new Error(`sandbox exited: ${buf}`)));
  });
  port = Number(/127\.0\.0\.1:(\d+)/.exec(firstLine)?.[1]);
});
afterAll(() => stop());

describe('dubdesk sandbox (the command) and docs/sandbox.md', () => {
  it('prints the base URL and the legacy URL on its first line', () => {
    expect(firstLine).toMatch(
      /^Sandbox running: base URL http:\/\/127\.0\.0\.1:\d+ {2}legacy URL http:\/\/127\.0\.0\.1:\d+\/legacy$/,
    );
  });

  it('serves every --user account', async () => {
    const me = await fetch(`http://127.0.0.1:${port}/api/v2/me`, { headers: { apikey: 'second-key' } });
    expect(((await me.json()) as { seconds: number }).seconds).toBe(50);
  });

  it("runs docs/sandbox.md's curl examples as written", async () => {
    const text = await readFile(SANDBOX_DOC, 'utf8');
    const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((m) => m[1] ?? '')
      .filter((b) => b.includes('curl'));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const cwd = tempDir('dubdesk-readme-');
    for (const block of blocks) {
      const script = `set -euo pipefail\n${block.replaceAll('8787', String(port))}`;
      const { stdout } = await run('bash', ['-c', script], { cwd });
      expect(stdout, block).not.toContain('"error"');
      expect(stdout.length, block).toBeGreaterThan(0);
    }
  });
});
