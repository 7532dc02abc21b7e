import { spawn } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, envFor, runCli } from '../../helpers/cli';
import { talkVideo } from '../../helpers/deliver-media';
import { tempDir } from '../../helpers/temp-dir';

/**
 * The files a finished line names are the files the dub left on disk: with `--subtitles srt` the WebVTT
 * the SubRip is made from is gone by the end, and the SubRip is there. Names with spaces and accents, one
 * of them decomposed (NFD, as macOS hands names over).
 */
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const NAMES = ['réunion d’équipe ñ.mp4', 'Café au lait été.mp4'.normalize('NFD')];

function setup() {
  const work = tempDir('dubdesk-finished-');
  const sources = NAMES.map((name) => {
    const path = join(work, name);
    copyFileSync(talkVideo(6), path);
    return path;
  });
  return { work, sources, env: envFor(sb, join(work, 'home')) };
}

/** The results on disk: every file beside the sources but the sources and the data folder. */
const resultsOnDisk = (work: string) =>
  readdirSync(work)
    .filter((f) => f !== 'home' && !NAMES.includes(f))
    .map((f) => join(work, f))
    .sort();

/** The paths each `✓` line names, by job: `✓ #1 name → es: /a/b.es.mp4, /a/b.es.srt`. */
function namedByFinishedLines(output: string): Map<string, string[][]> {
  const named = new Map<string, string[][]>();
  for (const line of output.split(/\r?\n/)) {
    const m = /^✓ (#\d+) .* → [a-z-]+: (.*)$/u.exec(line.trim());
    if (!m?.[1] || m[2] === undefined) continue;
    // A copy of a dub made already says so first: `copied from a.es.mp4, no charge: …`.
    const files = m[2].replace(/^copied from .*?, no charge: /u, '');
    named.set(m[1], [...(named.get(m[1]) ?? []), files.split(', ')]);
  }
  return named;
}

/** Runs `command` in a real pseudo-terminal (util-linux `script`), `columns` wide; what it showed. */
function inTerminal(args: string[], env: NodeJS.ProcessEnv, columns: number): Promise<string> {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const command = `stty cols ${columns} rows 30; ${[process.execPath, CLI, ...args].map(quote).join(' ')}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...env, TERM: 'xterm-256color' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.on('close', () => resolve(stripVTControlCharacters(Buffer.concat(chunks).toString())));
  });
}

describe('the finished lines name exactly the files each dub left on disk', () => {
  it('--subtitles srt, piped: one line per dub, the SubRip named, the WebVTT (removed) not', async () => {
    const { work, sources, env } = setup();
    const r = await runCli(
      ['dub', ...sources, '--to', 'es', '--subtitles', 'srt', '--poll-interval', '0.2'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const onDisk = resultsOnDisk(work);
    expect(onDisk.map((p) => p.slice(work.length + 1))).toEqual(
      [
        'Café au lait été.es.mp4',
        'Café au lait été.es.srt',
        'réunion d’équipe ñ.es.mp4',
        'réunion d’équipe ñ.es.srt',
      ]
        .map((n) => (n.startsWith('Café') ? n.normalize('NFD') : n))
        .sort(),
    );
    const named = namedByFinishedLines(r.stderr);
    expect([...named.keys()].sort()).toEqual(['#1', '#2']);
    // Each dub said once, and what it says is on disk: no line naming a file that is not, or leaving one out.
    for (const lines of named.values()) expect(lines, r.stderr).toHaveLength(1);
    expect([...named.values()].flatMap((lines) => lines.flat()).sort()).toEqual(onDisk);

    const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    expect(status.jobs.flatMap((j) => j.outputs.map((o) => o.path)).sort()).toEqual(onDisk);
  });

  it('--subtitles vtt,srt in a terminal: the line names the media, the WebVTT and the SubRip', async () => {
    const { work, sources, env } = setup();
    const shown = await inTerminal(
      ['dub', ...sources, '--to', 'es', '--subtitles', 'vtt,srt', '--poll-interval', '0.2'],
      env,
      300,
    );
    expect(shown).toContain('This batch: 2 completed');
    const onDisk = resultsOnDisk(work);
    expect(onDisk).toHaveLength(6);
    // In a terminal the line names the files by name (their folder is the one asked for).
    const named = namedByFinishedLines(shown);
    expect([...named.keys()].sort(), shown).toEqual(['#1', '#2']);
    for (const lines of named.values()) expect(lines, shown).toHaveLength(1);
    expect(
      [...named.values()]
        .flatMap((lines) => lines.flat())
        .map((name) => join(work, name))
        .sort(),
    ).toEqual(onDisk);
  });
});
