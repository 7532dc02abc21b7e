import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, envFor } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const run = promisify(execFile);
const has = (tool: string) => spawnSync(tool, ['-V']).status === 0;
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

const ROWS = 24;
const COLUMNS = 60;
/** 12 sources x 3 languages; some names long, wide (CJK) or made of emoji joined into one. */
const NAMES = [
  ...Array.from({ length: 9 }, (_, i) => `clip-${i + 1}`),
  'a very long file name that goes on and on well past the width of any terminal window',
  '日本語のファイル名と字幕のテスト',
  'emoji 🎬🍿👩‍👩‍👧 family',
];
const JOBS = NAMES.length * 3;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.5 });
});
afterAll(() => sb.stop());

/** A folder of sources and the shell command that dubs them into the languages. */
function batch(names = NAMES, to = 'es,fr,de'): { work: string; env: NodeJS.ProcessEnv; command: string } {
  const work = tempDir('dubdesk-tty-');
  const files = names.map((n) => {
    const path = join(work, `${n}.mp4`);
    copyFileSync(videoMp4(2, 'tty-src.mp4'), path);
    return path;
  });
  const env = { ...envFor(sb, join(work, 'home')), DUBDESK_RETRY_BASE_MS: '20' };
  const args = [
    'dub',
    ...files,
    '--to',
    to,
    '--out',
    join(work, 'out'),
    '--poll-interval',
    '0.2',
    '--concurrency',
    '4',
  ];
  return { work, env, command: [process.execPath, CLI, ...args].map(quote).join(' ') };
}

describe.skipIf(!has('tmux'))('progress in a real terminal (tmux, 24 rows by 60 columns)', () => {
  it('36 jobs: a bounded live region, finished lines scrolling above it once each, no line wrapped', async () => {
    const { env, command } = batch();
    const tmux = (...args: string[]) => run('tmux', ['-L', `dubdesk-test-${process.pid}`, ...args], { env });
    await tmux(
      'new-session',
      '-d',
      '-x',
      String(COLUMNS),
      '-y',
      String(ROWS),
      `${command}; echo "EXIT=$?"; sleep 600`,
    );
    try {
      await tmux('set-option', '-g', 'history-limit', '10000');
      // Watch the screen while it runs: the live region never grows past what the window can hold.
      let tallest = 0;
      await vi.waitFor(
        async () => {
          const screen = (await tmux('capture-pane', '-p')).stdout;
          const region = screen.split('\n').filter((l) => /^ +(\d+% #\d+ |… \d+ more|\d+\/\d+ done)/.test(l));
          tallest = Math.max(tallest, region.length);
          expect(screen).toContain('EXIT=');
        },
        { timeout: 235_000, interval: 100 },
      );
      expect(tallest).toBeGreaterThan(3);
      expect(tallest).toBeLessThanOrEqual(13); // 11 jobs, "… N more", the totals

      const history = (await tmux('capture-pane', '-p', '-S', '-', '-E', '-')).stdout.split('\n');
      const joined = (await tmux('capture-pane', '-p', '-J', '-S', '-', '-E', '-')).stdout.split('\n');
      const part = (lines: string[]) =>
        lines.slice(
          lines.findIndex((l) => l.startsWith(`Queued ${JOBS} jobs`)),
          lines.findIndex((l) => l.startsWith('This batch:')),
        );
      const progress = part(history);
      // Nothing wrapped: joining wrapped lines changes nothing in the progress part.
      expect(part(joined)).toEqual(progress);
      // Only the finished jobs stay above, each once: no leftovers of the live region in the scrollback.
      const finished = progress.slice(1).map((l) => Number(/^[✓✗] #(\d+) /.exec(l)?.[1]));
      expect(finished.sort((a, b) => a - b)).toEqual(Array.from({ length: JOBS }, (_, i) => i + 1));
      expect(progress).toHaveLength(JOBS + 1);
    } finally {
      await tmux('kill-server').catch(() => null);
    }
  }, 240_000);
});

describe.skipIf(!has('script'))('progress in a terminal that cannot redraw', () => {
  /** Runs `command` in a real pseudo-terminal (util-linux `script`) and returns the raw bytes it showed. */
  function pty(command: string, env: NodeJS.ProcessEnv): Promise<Buffer> {
    return new Promise((resolve) => {
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => chunks.push(d));
      child.on('close', () => resolve(Buffer.concat(chunks)));
    });
  }

  it('TERM=dumb gets plain lines and no cursor control at all; a real terminal type gets the live region', async () => {
    const few = NAMES.slice(0, 2);
    const { env, command } = batch(few, 'es');
    const dumb = await pty(`stty cols ${COLUMNS} rows ${ROWS}; ${command}`, { ...env, TERM: 'dumb' });
    expect(dumb.includes(0x1b), dumb.toString()).toBe(false);
    expect(dumb.toString()).toMatch(/^ {2}#1 clip-1\.mp4 → es: uploading\r$/m);
    expect(dumb.toString()).toContain('This batch:');

    const { env: env2, command: command2 } = batch(few, 'es');
    const xterm = await pty(`stty cols ${COLUMNS} rows ${ROWS}; ${command2}`, {
      ...env2,
      TERM: 'xterm-256color',
    });
    expect(xterm.includes(0x1b)).toBe(true);
  }, 120_000);
});
