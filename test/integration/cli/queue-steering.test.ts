import { copyFileSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BatchSummarySchema } from '../../../shared/contract/batch-summary';
import { JobViewSchema } from '../../../shared/contract/jobs';
import { PresetSchema } from '../../../shared/contract/presets';
import { WatchFolderSchema } from '../../../shared/contract/watch';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const MIB = 1024 * 1024;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 1_000_000 });
});
afterAll(() => sb.stop());

/** A source of its own content (so it is never taken for a copy of another) of `bytes` bytes. */
function sourceOf(name: string, seconds: number, bytes?: number): string {
  const dir = tempDir('dubdesk-src-');
  const path = join(dir, name);
  copyFileSync(videoMp4(seconds, `steer-${seconds}-${name}`), path);
  if (bytes !== undefined) truncateSync(path, bytes);
  return path;
}

const StatusJobs = z.object({ jobs: z.array(JobViewSchema) });

/** What each job of a home's queue sends, read from its database as the worker reads it. */
function sendsOf(home: string): [string, string, string][] {
  const db = new Database(join(home, 'dubdesk.db'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT source_name, dest_lang, send FROM jobs ORDER BY id`).raw().all();
    return z.array(z.tuple([z.string(), z.string(), z.string()])).parse(rows);
  } finally {
    db.close();
  }
}
async function jobsOf(env: NodeJS.ProcessEnv) {
  const r = await runCli(['status', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return StatusJobs.parse(JSON.parse(r.stdout)).jobs;
}

describe('steering the queue from the command line', () => {
  it('sends first the job moved to the top of three queued while the queue was paused', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const files = [sourceOf('first one.mp4', 1), sourceOf('second.mp4', 2), sourceOf('third ñ.mp4', 3)];
    expect((await runCli(['pause'], env)).code).toBe(0);
    const added = await runCli(['add', ...files, '--to', 'es', '--out', join(home, 'out')], env);
    expect(added.code, added.stderr).toBe(0);
    const third = (await jobsOf(env)).find((j) => j.sourceName === 'third ñ.mp4');
    expect(third).toBeDefined();
    const moved = await runCli(['move', String(third?.id), '--top'], env);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain('Moved 1 job to the top');
    expect((await runCli(['resume'], env)).code).toBe(0);
    const before = new Set(sb.state.dubs.keys());
    const run = await runCli(['run', '--until-done', '--concurrency', '1', '--poll-interval', '0.1'], env);
    expect(run.code, run.stderr).toBe(0);
    const made = [...sb.state.dubs.values()].filter((d) => !before.has(d.id)).map((d) => d.name);
    expect(made[0]).toBe('third ñ.mp4');
    expect(made).toHaveLength(3);
  });

  it('leaves a job already sent where it is, and names ids that are no job', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const file = sourceOf('done.mp4', 1);
    const r = await runCli(
      ['dub', file, '--to', 'es', '--out', join(home, 'out'), '--poll-interval', '0.1'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const stayed = await runCli(['move', '1', '--bottom'], env);
    expect(stayed.code).toBe(1);
    expect(stayed.stderr).toContain('1 job stayed where it was');
    const missing = await runCli(['move', '99', '--top'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such job: #99');
    const both = await runCli(['move', '1', '--top', '--bottom'], env);
    expect(both.code).toBe(2);
  });

  it('saves a preset and adds with it: two studio jobs, German and Italian; a flag beside it wins', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const saved = await runCli(['preset', 'save', 'euro', '--to', 'de,it', '--studio'], env);
    expect(saved.code, saved.stderr).toBe(0);
    const clip = sourceOf('clip.mp4', 1);
    const added = await runCli(['add', clip, '--preset', 'EURO', '--out', join(home, 'out')], env);
    expect(added.code, added.stderr).toBe(0);
    const jobs = await jobsOf(env);
    expect(jobs.map((j) => [j.destLang, j.studio])).toEqual([
      ['de', true],
      ['it', true],
    ]);
    const other = sourceOf('other.mp4', 2);
    expect((await runCli(['add', other, '--preset', 'euro', '--to', 'fr'], env)).code).toBe(0);
    const fr = (await jobsOf(env)).filter((j) => j.sourceName === 'other.mp4');
    expect(fr.map((j) => [j.destLang, j.studio])).toEqual([['fr', true]]);

    const list = await runCli(['preset', 'list', '--json'], env);
    expect(z.object({ presets: z.array(PresetSchema) }).parse(JSON.parse(list.stdout)).presets).toHaveLength(
      1,
    );
    const unknown = await runCli(['add', clip, '--preset', 'asia'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('there is no preset called “asia”');
    expect(unknown.stderr).toContain('euro');
    expect((await runCli(['preset', 'delete', 'euro'], env)).code).toBe(0);
    expect((await runCli(['preset', 'show', 'euro'], env)).code).not.toBe(0);
  });

  it('a preset keeps what it sends and hands on: add and a watched folder given it send the sound alone', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    // The suite's world sends whole files unasked (DUBDESK_SEND=file): the preset says otherwise.
    const saved = await runCli(
      ['preset', 'save', 'voice only', '--to', 'de', '--send', 'audio', '--package', 'mkv'],
      env,
    );
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain('sends the sound alone');
    const clip = sourceOf('master copy.mp4', 1);
    const added = await runCli(['add', clip, '--preset', 'voice only', '--out', join(home, 'out')], env);
    expect(added.code, added.stderr).toBe(0);
    // A flag beside the preset still wins.
    const other = sourceOf('rough cut.mp4', 2);
    const whole = await runCli(['add', other, '--preset', 'voice only', '--send', 'file'], env);
    expect(whole.code, whole.stderr).toBe(0);
    expect(sendsOf(home)).toEqual([
      ['master copy.mp4', 'de', 'audio'],
      ['rough cut.mp4', 'de', 'file'],
    ]);

    const inbox = tempDir('dubdesk-inbox-');
    const watched = await runCli(['watch', inbox, '--preset', 'voice only', '--json'], env);
    expect(watched.code, watched.stderr).toBe(0);
    expect(WatchFolderSchema.parse(JSON.parse(watched.stdout)).preset).toMatchObject({
      to: ['de'],
      send: 'audio',
      package: 'mkv',
    });
  });

  it('runs the --when-done command once, with the summary --json prints on its standard input', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const files = [sourceOf('a.mp4', 1), sourceOf('b.mp4', 2)];
    expect((await runCli(['add', ...files, '--to', 'es,fr', '--out', join(home, 'out')], env)).code).toBe(0);
    const file = join(home, 'sum mary.json');
    const run = await runCli(
      ['run', '--until-done', '--json', '--poll-interval', '0.1', '--when-done', `cat >> '${file}'`],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const summary = BatchSummarySchema.parse(JSON.parse(lines[0] ?? ''));
    expect(summary).toEqual(JSON.parse(run.stdout));
    expect(summary.tally.completed).toBe(4);
    // Nothing open left to finish: a second run has no batch, so nothing runs.
    await runCli(['run', '--until-done', '--when-done', `cat >> '${file}'`], env);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(1);
  });

  it('spend --csv has a header and one line per charged job, adding up to the ledger', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const files = [sourceOf('spend, one.mp4', 1), sourceOf('spend two.mp4', 2)];
    const r = await runCli(
      ['dub', ...files, '--to', 'es,de', '--studio', '--out', join(home, 'out'), '--poll-interval', '0.1'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const csv = await runCli(['spend', '--csv'], env);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual(
      expect.arrayContaining(['date', 'file', 'language', 'credits']),
    );
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => basename(row.file ?? '')).sort()).toEqual([
      'spend two.mp4',
      'spend two.mp4',
      'spend, one.mp4',
      'spend, one.mp4',
    ]);
    // What this home's jobs were charged is what the service's ledger says for their dubs.
    const jobs = await jobsOf(env);
    const remote = new Set(jobs.map((j) => j.remoteId));
    const ledger = sb.state.ledger.filter((c) => remote.has(c.dubId)).reduce((n, c) => n + c.seconds, 0);
    expect(rows.reduce((n, row) => n + Number(row.credits), 0)).toBe(ledger);
    const byLanguage = await runCli(['spend', '--by', 'language', '--json'], env);
    expect(JSON.parse(byLanguage.stdout)).toMatchObject({ by: 'language', total: ledger });
    const bad = await runCli(['spend', '--since', 'yesterday'], env);
    expect(bad.code).toBe(2);
  });

  it('status --watch, piped, writes a line per change of a queue another process works', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const files = [sourceOf('watched a.mp4', 1), sourceOf('watched b.mp4', 2)];
    expect((await runCli(['add', ...files, '--to', 'es', '--out', join(home, 'out')], env)).code).toBe(0);
    const watching = startCli(['status', '--watch'], env);
    let out = '';
    watching.child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await expect.poll(() => out.includes('watched b.mp4'), { timeout: 30_000 }).toBe(true);
    const run = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(run.code, run.stderr).toBe(0);
    await expect
      .poll(() => (out.match(/^✓ #\d+ watched [ab]\.mp4 → es/gm) ?? []).length, { timeout: 30_000 })
      .toBe(2);
    expect(out).toMatch(/watched a\.mp4 → es: uploading|watched a\.mp4 → es: in the service queue|dubbing/);
    watching.child.kill('SIGINT');
    expect((await watching.done).code).toBe(0);
  });

  it('a 2.5 MiB upload under --max-upload-rate 1MiB takes at least 2 s to arrive', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const file = sourceOf('capped.mp4', 2, 2.5 * MIB);
    expect((await runCli(['add', file, '--to', 'es', '--out', join(home, 'out')], env)).code).toBe(0);
    const seen = sb.state.ingest.uploads.length;
    const run = await runCli(
      ['run', '--until-done', '--max-upload-rate', '1MiB', '--poll-interval', '0.1'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const arrived = sb.state.ingest.uploads.slice(seen);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]?.bytes).toBe(statSync(file).size);
    expect(arrived[0]?.ms).toBeGreaterThanOrEqual(2000);
    const refused = await runCli(['run', '--until-done', '--max-upload-rate', '10KiB'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('would stall transfers');
    // A cap past what any line carries is a typo, refused before anything is queued or run.
    const huge = await runCli(['dub', file, '--to', 'fr', '--max-upload-rate', '9999999TiB'], env);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('a cap above 10GiB per second');
    expect(huge.stderr).not.toContain('tokensPerInterval');
  });
});
