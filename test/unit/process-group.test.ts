import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProcessPool } from '../../electron/sandbox/process-pool';

describe.skipIf(process.platform === 'win32' || !existsSync('/proc/self/stat'))('media processes', () => {
  it('run in a process group of their own, so a Ctrl+C at the terminal does not kill them mid-dub', async () => {
    const pool = new ProcessPool(null, 1);
    // The shell prints its pid and its process group (field 5 of /proc/<pid>/stat).
    const { stdout } = await pool.runFile('sh', ['-c', 'echo $$ $(cut -d" " -f5 /proc/$$/stat)']);
    const [pid, group] = stdout.trim().split(' ').map(Number);
    expect(group).toBe(pid);
    const ours = Number(
      (await pool.runFile('cut', ['-d ', '-f5', `/proc/${process.pid}/stat`])).stdout.trim(),
    );
    expect(group).not.toBe(ours);
  });
});
