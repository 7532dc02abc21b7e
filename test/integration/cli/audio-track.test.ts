/**
 * `--audio-track N|LANG` (the film with a commentary, the recording with its original language second):
 * the track chosen is the one sent, the one QC measures the dub against, the package's original (first,
 * the dubs after it, the source's other tracks kept at the end, tagged); the same track chosen twice is
 * paid once, another track is another dub; a track the file lacks, or bad input, is refused with a clear
 * message and nothing is charged. Against the sandbox with real ffmpeg media of three tagged tracks.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { ffprobeJson, videoMd5 } from '../../helpers/media';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { trackMd5, videoWithTracks } from '../../helpers/track-media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

interface StatusJob {
  id: number;
  state: string;
  destLang: string;
  audioTrack?: string;
  qc?: { verdict: string; durationDelta: number | null; problems: { code: string }[] } | null;
}

async function statusJobs(env: NodeJS.ProcessEnv): Promise<StatusJob[]> {
  const r = await runCli(['status', '--json'], env);
  return (JSON.parse(r.stdout) as { jobs: StatusJob[] }).jobs;
}

function world(prefix: string) {
  const work = tempDir(prefix);
  const talks = join(work, 'talks');
  mkdirSync(talks);
  const source = join(talks, 'Film à trois pistes.mp4');
  copyFileSync(videoWithTracks('three-tracks-cli.mp4'), source);
  return { work, source, out: join(work, 'out'), env: envFor(sb, join(work, 'home')) };
}

const poll = ['--poll-interval', '0.1'];

describe('dubbing the audio track chosen', () => {
  it('sends the French track (by language), QC measures against it, the package puts it first; the same track again is free, another is a new dub', async () => {
    const { source, out, env } = world('dubdesk-track-');
    const before = new Set(startedDubs(sb).map((d) => d.id));
    const r = await runCli(
      [
        ...['dub', source, '--to', 'es', '--audio-track', 'fr', '--send', 'audio'],
        ...['--package', 'mkv', '--out', out, ...poll],
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code, r.stderr).toBe(0);

    // What the service got: the French track's own packets, nothing else.
    const sent = startedDubs(sb).filter((d) => !before.has(d.id));
    expect(sent).toHaveLength(1);
    const upload = sent[0]?.uploadPath ?? '';
    expect(ffprobeJson(upload).streams.map((s) => s.codec_type)).toEqual(['audio']);
    expect(trackMd5(upload, 1)).toBe(trackMd5(source, 2));

    const [job] = await statusJobs(env);
    expect(job).toMatchObject({ state: 'completed', destLang: 'es', audioTrack: '2' });
    // The French track lasts 4 s: measured against the first (6 s), the dub would be 2 s short.
    expect(job?.qc?.problems.map((p) => p.code)).not.toContain('length');
    expect(Math.abs(job?.qc?.durationDelta ?? 99)).toBeLessThan(0.5);

    // The package: the picture bit for bit; French (the original dubbed) first and default, the Spanish
    // dub, then the source's other tracks as they are, tagged.
    const pkg = join(out, 'Film à trois pistes.multi.mkv');
    expect(videoMd5(pkg)).toBe(videoMd5(source));
    const sounds = ffprobeJson(pkg).streams.filter((s) => s.codec_type === 'audio') as {
      tags?: Record<string, string>;
      disposition?: { default?: number };
    }[];
    expect(sounds.map((s) => [s.tags?.language, s.tags?.title, s.disposition?.default])).toEqual([
      ['fre', 'French (original)', 1],
      ['spa', 'Spanish (dubbed)', 0],
      ['eng', 'Main mix', 0],
      ['eng', 'Commentary', 0],
    ]);
    expect(trackMd5(pkg, 1)).toBe(trackMd5(source, 2));
    expect(trackMd5(pkg, 3)).toBe(trackMd5(source, 1));
    expect(trackMd5(pkg, 4)).toBe(trackMd5(source, 3));

    // The same track by its number: already dubbed, not sent or paid again.
    const charged = sb.state.ledger.length;
    const same = await runCli(
      ['add', source, '--to', 'es', '--audio-track', '2', '--send', 'audio', '--out', out],
      env,
    );
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout + same.stderr).toMatch(/already dubbed/i);
    expect(await statusJobs(env)).toHaveLength(1);

    expect(sb.state.ledger.length).toBe(charged);

    // The commentary is another dub of the same file, into the same language: named apart, the French
    // track's dub stays where it is (not moved to previous/ as an earlier version of it).
    const other = await runCli(
      ['dub', source, '--to', 'es', '--audio-track', '3', '--send', 'audio', '--out', out, ...poll],
      env,
    );
    expect(other.code, other.stderr).toBe(0);
    const jobs = await statusJobs(env);
    expect(jobs.map((j) => j.audioTrack ?? 'first')).toEqual(['2', '3']);
    expect(sb.state.ledger.length).toBe(charged + 1);
    const results = (await readdir(out)).filter((n) => !n.includes('.multi.')).sort();
    expect(results).toEqual([
      'Film à trois pistes.track2.es.mp4',
      'Film à trois pistes.track2.es.vtt',
      'Film à trois pistes.track3.es.mp4',
      'Film à trois pistes.track3.es.vtt',
    ]);
  }, 120_000);

  it('refuses a track the file does not have, naming the file and its tracks, before anything is charged', async () => {
    const { source, out, env } = world('dubdesk-track-none-');
    const dubs = startedDubs(sb).length;
    const r = await runCli(
      ['dub', source, '--to', 'es', '--audio-track', '4', '--send', 'audio', '--out', out, ...poll],
      env,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toContain(
      `${source} has no audio track 4: its audio tracks are 1 (eng, Main mix, stereo), 2 (fre, Version française, stereo), 3 (eng, Commentary, mono)`,
    );
    expect(r.stderr).toContain('Choose one of its tracks (1 to 3, or a language it has), or the first.');
    expect(r.code).not.toBe(0);
    const german = await runCli(['add', source, '--to', 'es', '--audio-track', 'deu', '--out', out], env);
    expect(german.stderr).toContain(`${source} has no ger audio track: its audio tracks are 1 (eng`);
    expect(await statusJobs(env)).toEqual([]);
    expect(startedDubs(sb).length).toBe(dubs);
  });

  it('--send file cannot choose a track for the service: refused, naming the file and the fix', async () => {
    const { source, out, env } = world('dubdesk-track-file-');
    const r = await runCli(
      ['add', source, '--to', 'es', '--audio-track', '2', '--send', 'file', '--out', out],
      env,
    );
    expect(r.stderr).toContain(
      `${source}: the whole file is sent (--send file, or DUBDESK_SEND=file), and the service dubs a whole file's first audio track, 1 (eng, Main mix, stereo), not track 2 (fre, Version française, stereo)`,
    );
    expect(r.stderr).toContain('--send audio');
    expect(await statusJobs(env)).toEqual([]);
    // The first track, named by its number, goes whole as before.
    const first = await runCli(
      ['add', source, '--to', 'es', '--audio-track', '1', '--send', 'file', '--out', out],
      env,
    );
    expect(first.code, first.stderr).toBe(0);
    expect((await statusJobs(env)).map((j) => j.audioTrack ?? 'first')).toEqual(['first']);
  });

  it.each([
    ['0', 'audio track 0 does not exist: tracks are counted from 1'],
    ['xx', "'xx' is not an audio track: an audio track is first, its number"],
    ['-1', "'-1' is not an audio track"],
    ['1.5', "'1.5' is not an audio track"],
  ])('--audio-track %s: a clear message, exit 2, nothing queued', async (track, said) => {
    const { source, env } = world('dubdesk-track-bad-');
    const r = await runCli(['add', source, '--to', 'es', `--audio-track=${track}`], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(said);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await statusJobs(env)).toEqual([]);
  });
});

describe("a watched folder's settings keep the track chosen", () => {
  it('watch --audio-track keeps the choice in its preset; changing it is a new preset version', async () => {
    const { work, env } = world('dubdesk-track-watch-');
    const dir = join(work, 'incoming');
    mkdirSync(dir);
    const added = await runCli(['watch', dir, '--to', 'es', '--audio-track', 'fr'], env);
    expect(added.code, added.stderr).toBe(0);
    const listed = async () =>
      (
        JSON.parse((await runCli(['watch', '--list', '--json'], env)).stdout) as {
          folders: { presetVersion: number; preset: { audioTrack: string } }[];
        }
      ).folders;
    const [before] = await listed();
    expect(before?.preset.audioTrack).toBe('fr');
    const changed = await runCli(['watch', dir, '--audio-track', '3'], env);
    expect(changed.code, changed.stderr).toBe(0);
    const [after] = await listed();
    expect(after).toMatchObject({
      presetVersion: (before?.presetVersion ?? 0) + 1,
      preset: { audioTrack: '3' },
    });
    const bad = await runCli(['watch', dir, '--audio-track', '0'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('audio track 0 does not exist');
  });
});
