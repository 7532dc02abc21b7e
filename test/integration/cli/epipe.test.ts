import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../../helpers/cli';
import { tempDir } from '../../helpers/engine';
import { seedQueue } from '../../helpers/seed';

/**
 * Runs `dubdesk ARGS | READER` in a real shell pipe and returns what the command itself wrote on stderr
 * and its own exit status (PIPESTATUS[0]), whatever the reader did.
 */
function piped(args: string, reader: string, home: string): { stderr: string; status: number } {
  const r = spawnSync(
    'bash',
    [
      '-c',
      `"${process.execPath}" "${CLI}" ${args} | ${reader} >/dev/null; echo "status=\${PIPESTATUS[0]}" >&2`,
    ],
    { env: { ...process.env, DUBDESK_HOME: home, DUBDESK_KEY_STORE: 'file' }, encoding: 'utf8' },
  );
  const status = Number(/status=(\d+)\n$/.exec(r.stderr)?.[1]);
  return { stderr: r.stderr.replace(/status=\d+\n$/, ''), status };
}

describe('output piped into a reader that stops early', () => {
  it('`dubdesk langs | true` (the reader gone before a line) ends quietly, exit 0, no stack trace', () => {
    const home = join(tempDir('dubdesk-epipe-'), 'home');
    for (let i = 0; i < 3; i++) {
      const r = piped('langs', 'true', home);
      expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(r.status).toBe(0);
    }
  }, 60_000);

  // The engine's log file is still being opened when `head` goes away: exiting then crashed in the log's
  // exit hook ("sonic boom is not ready yet"), every time.
  it('`logs N | head -1`, `status | head -1` and `status --json | head -1` end quietly, every time', () => {
    const home = join(tempDir('dubdesk-epipe-'), 'home');
    seedQueue(home, 400, ['es', 'fr']);
    for (let i = 0; i < 3; i++)
      for (const args of ['logs 1', 'status --all', 'status --json']) {
        const r = piped(args, 'head -1', home);
        expect(r.stderr, args).toBe('');
        expect(r.status, args).toBe(0);
      }
  }, 120_000);
});
