import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/engine';

const run = promisify(execFile);
const CONTENDER = new URL('../../helpers/sandbox-lock-contender.ts', import.meta.url).pathname;

describe('the sandbox state directory lock', () => {
  it('four starters taking over a dead sandbox’s lock at the same instant: exactly one holds it, every trial', async () => {
    for (let t = 0; t < 5; t++) {
      const dir = tempDir('dubdesk-sblock-');
      const dead = spawn(process.execPath, ['-e', '0']);
      await new Promise((r) => dead.on('exit', r));
      await writeFile(
        join(dir, t % 2 ? 'lock' : 'lock.3'),
        JSON.stringify({ pid: dead.pid, baseUrl: 'http://127.0.0.1:9' }),
      );
      const startAt = Date.now() + 1500;
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () =>
          run(process.execPath, ['--import', 'tsx', CONTENDER, dir, String(startAt)]).then((r) =>
            r.stdout.trim(),
          ),
        ),
      );
      expect(
        outcomes.filter((o) => o === 'held'),
        `trial ${t}: ${outcomes.join(', ')}`,
      ).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'busy SandboxStateError')).toHaveLength(3);
    }
  });
});
