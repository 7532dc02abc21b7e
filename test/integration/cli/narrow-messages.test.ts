import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, envFor } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const COLUMNS = 50;
const server = `dubdesk-narrow-msg-${process.pid}`;
const env = { ...process.env, DUBDESK_KEY_STORE: 'file' };
const tmux = (...args: string[]) => promisify(execFile)('tmux', ['-L', server, ...args], { env });

/** What `command` leaves in a fresh tmux window `columns` wide: as shown, and with the terminal's own wraps joined. */
async function screenOf(
  name: string,
  command: string,
  columns = COLUMNS,
): Promise<{ shown: string[]; joined: string[] }> {
  await tmux(
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    String(columns),
    '-y',
    '200',
    `${command}; echo "EXIT=$?"; sleep 600`,
  );
  await vi.waitFor(
    async () => expect((await tmux('capture-pane', '-p', '-t', name)).stdout).toMatch(/EXIT=\d/),
    {
      timeout: 60_000,
      interval: 200,
    },
  );
  const shown = (await tmux('capture-pane', '-p', '-t', name)).stdout.trimEnd().split('\n');
  const joined = (await tmux('capture-pane', '-p', '-J', '-t', name)).stdout.trimEnd().split('\n');
  return { shown, joined };
}

/** Nothing the terminal had to wrap (so no word cut at the edge), nothing wider than the window. */
function expectFitted({ shown, joined }: { shown: string[]; joined: string[] }, columns = COLUMNS): void {
  expect(joined).toEqual(shown);
  for (const line of shown) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
}

const words = (lines: string[]) => lines.join(' ').replace(/\s+/g, ' ');

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

describe(`the CLI's messages in a ${COLUMNS}-column terminal (tmux)`, () => {
  afterAll(() => tmux('kill-server').catch(() => null));

  it('--help puts each description under its command when beside it there is no room', async () => {
    const screen = await screenOf('help', `'${process.execPath}' '${CLI}' --help`);
    expectFitted(screen);
    const text = words(screen.shown);
    expect(text).toContain('Add, then run the queue until every job is done');
    expect(text).toContain('List the jobs and where each one is');
  }, 90_000);

  it('an error naming a long path is wrapped between words, the fix whole', async () => {
    const root = join(tempDir('dubdesk-narrow-msg-'), 'Mes vidéos à doubler', 'conférence annuelle');
    mkdirSync(root, { recursive: true });
    const home = join(root, '..', 'home');
    const missing = join(root, 'nope file.mp4');
    const screen = await screenOf(
      'missing',
      `DUBDESK_HOME='${home}' '${process.execPath}' '${CLI}' add '${missing}' --to es`,
    );
    expectFitted(screen);
    const text = words(screen.shown);
    expect(text).toContain('no such file. Check the path (quote names with spaces).');
    expect(text).toContain('dubdesk: nothing to add.');
  }, 90_000);

  it('a usage error found while the line is read (before any command runs) is wrapped between words too', async () => {
    const home = join(tempDir('dubdesk-narrow-msg-'), 'home');
    const screen = await screenOf('usage', `DUBDESK_HOME='${home}' '${process.execPath}' '${CLI}' qc abc`);
    expectFitted(screen);
    expect(words(screen.shown)).toContain("value 'abc' is invalid for argument 'ids'");
  }, 90_000);

  it("what a command prints on stdout (estimate's prose) wraps between words; JSON is left whole", async () => {
    const work = join(tempDir('dubdesk-narrow-msg-'), 'Mes vidéos');
    mkdirSync(work, { recursive: true });
    const keynote = join(work, 'keynote.mp4');
    copyFileSync(videoMp4(3, 'narrow-estimate.mp4'), keynote);
    const env = Object.entries(envFor(sb, join(work, 'home')))
      .filter(([k]) => k.startsWith('DUBDESK_'))
      .map(([k, v]) => `${k}='${v ?? ''}'`)
      .join(' ');
    const args = `estimate '${keynote}' --to es,fr --package mkv --subtitles vtt,srt`;
    const screen = await screenOf('estimate', `${env} '${process.execPath}' '${CLI}' ${args}`);
    expectFitted(screen);
    const text = words(screen.shown);
    expect(text).toContain(
      'Made here at no charge: one MKV per file with every language (keynote.multi.mkv)',
    );
    expect(text).toContain(
      'The charge is the duration the service measures, once per dub, when it completes.',
    );
    // JSON is never wrapped: a terminal shows it as it is, to be copied whole.
    const json = await screenOf('estimate-json', `${env} '${process.execPath}' '${CLI}' ${args} --json`);
    expect(() => JSON.parse(json.joined.filter((l) => !l.startsWith('EXIT=')).join(''))).not.toThrow();
  }, 90_000);

  it('a batch of long names alike keeps, on each line, the part that tells them apart', async () => {
    const work = join(tempDir('dubdesk-narrow-msg-'), 'Conférences');
    mkdirSync(work, { recursive: true });
    const names = [1, 2].map((n) =>
      join(work, `Conférence annuelle — partie ${n} avec un nom très long.mp4`),
    );
    names.forEach((path, i) => copyFileSync(videoMp4(2 + i, `narrow-part-${i}.mp4`), path));
    const env = Object.entries(envFor(sb, join(work, 'home')))
      .filter(([k]) => k.startsWith('DUBDESK_'))
      .map(([k, v]) => `${k}='${v ?? ''}'`)
      .join(' ');
    const quoted = names.map((n) => `'${n}'`).join(' ');
    const dubdesk = `${env} '${process.execPath}' '${CLI}'`;
    const screen = await screenOf('alike', `${dubdesk} dub ${quoted} --to es,fr --poll-interval 0.2`);
    expectFitted(screen);
    const finished = screen.shown.filter((l) => /^✓ #\d+ /.test(l));
    expect(finished, screen.shown.join('\n')).toHaveLength(4);
    for (const line of finished) expect(line, screen.shown.join('\n')).toMatch(/partie [12]/);
    // `status`: a block a job at 50 columns, a table at 80; each job's line names its part.
    for (const columns of [COLUMNS, 80]) {
      const status = await screenOf(`status-${columns}`, `${dubdesk} status`, columns);
      expectFitted(status, columns);
      const jobs = status.shown.filter((l) => /^#?\d+ /.test(l));
      expect(jobs, status.shown.join('\n')).toHaveLength(4);
      for (const line of jobs) expect(line, status.shown.join('\n')).toMatch(/partie [12]/);
    }
  }, 120_000);
});
