import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../../helpers/cli';
import { tempDir } from '../../helpers/engine';

describe('output piped into a reader that stops early', () => {
  it('`dubdesk langs | true` (the reader gone before a line) ends quietly, exit 0, no stack trace', () => {
    const home = join(tempDir('dubdesk-epipe-'), 'home');
    for (let i = 0; i < 3; i++) {
      const r = spawnSync(
        'bash',
        ['-c', `"${process.execPath}" "${CLI}" langs | true; echo "status=\${PIPESTATUS[0]}" >&2`],
        { env: { ...process.env, DUBDESK_HOME: home, DUBDESK_KEY_STORE: 'file' }, encoding: 'utf8' },
      );
      expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(r.stderr).toContain('status=0');
    }
  }, 60_000);
});
