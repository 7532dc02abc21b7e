import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contend } from '../../helpers/contender';
import { tempDir } from '../../helpers/temp-dir';
import { fileURLToPath } from 'node:url';

const CONTENDER = fileURLToPath(new URL('../../helpers/sandbox-lock-contender.ts', import.meta.url));

describe('the sandbox state directory lock', () => {
  it('four starters taking over a dead sandbox’s lock at the same instant: exactly one holds it, every trial', async () => {
    for (let t = 0; t < 4; t++) {
      const dir = tempDir('dubdesk-sblock-');
      const dead = spawn(process.execPath, ['-e', '0']);
      await new Promise((r) => dead.on('exit', r));
      await writeFile(
        join(dir, t % 2 ? 'lock' : 'lock.3'),
        JSON.stringify({ pid: dead.pid, baseUrl: 'http://127.0.0.1:9' }),
      );
      const outcomes = await contend(CONTENDER, [dir], 4);
      expect(
        outcomes.filter((o) => o === 'held'),
        `trial ${t}: ${outcomes.join(', ')}`,
      ).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'busy SandboxStateError')).toHaveLength(3);
    }
  }, 180_000);
});
