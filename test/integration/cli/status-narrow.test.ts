import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import stringWidth from 'string-width';
import { describe, expect, it, vi } from 'vitest';
import { CLI } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { seedQueue } from '../../helpers/seed';

const has = (tool: string) => spawnSync(tool, ['-V']).status === 0;
const COLUMNS = 40;

describe.skipIf(!has('tmux'))(`status in a ${COLUMNS}-column terminal (tmux)`, () => {
  it('fits: no line wider than the window, none wrapped, and each job’s name ends as it does', async () => {
    const home = join(tempDir('dubdesk-narrow-'), 'home');
    // Names long and short; the seeded jobs belong to a service nobody runs, so each has a note.
    seedQueue(home, 8, ['es', 'fr']);
    const env = { ...process.env, DUBDESK_HOME: home, DUBDESK_KEY_STORE: 'file' };
    const tmux = (...args: string[]) =>
      promisify(execFile)('tmux', ['-L', `dubdesk-narrow-${process.pid}`, ...args], { env });
    const command = `'${process.execPath}' '${CLI}' status; echo "EXIT=$?"; sleep 600`;
    await tmux('new-session', '-d', '-x', String(COLUMNS), '-y', '100', command);
    try {
      await vi.waitFor(async () => expect((await tmux('capture-pane', '-p')).stdout).toContain('EXIT=0'), {
        timeout: 60_000,
        interval: 200,
      });
      const lines = (await tmux('capture-pane', '-p')).stdout.trimEnd().split('\n');
      const joined = (await tmux('capture-pane', '-p', '-J')).stdout.trimEnd().split('\n');
      // Joining the lines the terminal wrapped changes nothing: none was.
      expect(joined).toEqual(lines);
      for (const line of joined) expect(stringWidth(line), line).toBeLessThanOrEqual(COLUMNS);
      const screen = joined.join('\n');
      // Every job is there, its number and language whole, its name's end kept ("take 00000.mp4").
      for (let id = 1; id <= 16; id++) expect(screen).toMatch(new RegExp(`#${id} .*→ (es|fr)$`, 'm'));
      expect(screen).toMatch(/take 00000\.mp4 → es$/m);
      expect(screen).toMatch(/clip-00001\.mp4 → es$/m);
      // Why each waits, in words, not cut to a stub.
      expect(screen).toMatch(/made on http:\/\/127\.0\.0\.1:9/);
      expect(screen).toMatch(/Credits: balance/);
    } finally {
      await tmux('kill-server').catch(() => null);
    }
  }, 90_000);
});
