import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QcJson, StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { loudnormMeasure, talkVideo, withAudioFilter } from '../../helpers/deliver-media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

/** Said where the dub is as loud as its source, in every place QC's words are. */
const AS_SOURCE =
  /integrated loudness -1[345]\.\d LUFS, target -23 ±2, broadcast \(EBU R128\); the source itself is at -1[345]\.\d LUFS: the dub is as loud as its original/;

describe('a web-loud source (about -14 LUFS) at the default broadcast target', () => {
  // The dub the first test makes, judged again by the second.
  let made: { env: NodeJS.ProcessEnv; source: string; loudness: unknown; credits: number | null } | null =
    null;

  it('QC says the source itself is that loud, and how to pick the web target, in qc, status --json and the run', async () => {
    const work = tempDir('dubdesk-web-loud-');
    // Web video is mastered near -14 LUFS: the sandbox's dub keeps its source's sound, as loud.
    const source = join(work, 'clip du web ñ.mp4');
    copyFileSync(withAudioFilter(talkVideo(10), 'volume=9dB', 'web.mp4'), source);
    const env = envFor(sb, join(work, 'home'));
    const r = await runCli(['dub', source, '--to', 'es', '--poll-interval', '0.2'], env);
    expect(r.code, r.stderr).toBe(0);
    // The run's last lines: the QC's first words are the loudness's, with the source's.
    expect(r.stderr).toMatch(new RegExp(`! #1 clip du web ñ\\.mp4 → es: QC FAILS: ${AS_SOURCE.source}`));

    const qc = await runCli(['qc'], env);
    expect(qc.stdout).toMatch(AS_SOURCE);
    expect(qc.stdout).toMatch(
      /Dubbing it again would give the same\. If it goes to a web platform, pick the web target \(-14 LUFS\): /,
    );
    expect(qc.stdout).toMatch(/source -1[345]\.\d LUFS/);

    const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    const job = status.jobs[0];
    expect(job?.qc?.problems.find((p) => p.code === 'loudness')?.message).toMatch(AS_SOURCE);
    const measured = loudnormMeasure(source).integrated;
    expect(Math.abs((job?.qc?.loudness.source ?? 0) - measured)).toBeLessThanOrEqual(1);

    made = { env, source, loudness: job?.qc?.loudness, credits: job?.creditsCharged ?? null };
  });

  it('the web target for the dub already made: judged again for free, with the service gone, and back', async () => {
    if (!made) throw new Error('the first test made no dub');
    const { env, source } = made;
    const qc = await runCli(['qc', '1'], env);
    // What the remedy says works, for the dub already made: judged again against the web target, at no
    // cost and with no call to the service (here gone: its address answers nothing).
    expect(qc.stdout).toMatch(
      /pick the web target \(-14 LUFS\): `dubdesk qc --loudness web 1` judges this dub again against it at no cost/,
    );
    // `dub … --loudness web` on a dub already made names the free way instead of only the paid one.
    const again = await runCli(
      ['dub', source, '--to', 'es', '--loudness', 'web', '--poll-interval', '0.2'],
      env,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/`dubdesk qc --loudness web 1` judges it against that target at no cost/);

    const offline = {
      ...env,
      DUBDESK_BASE_URL: 'http://127.0.0.1:9/',
      DUBDESK_LEGACY_URL: 'http://127.0.0.1:9/',
    };
    const web = await runCli(['qc', '--loudness', 'web', '1'], offline);
    expect(web.code, web.stderr).toBe(0);
    expect(web.stdout).toMatch(/#1 clip du web ñ\.mp4 → es: QC passes \(.*target -14±2/);
    const json = QcJson.parse(JSON.parse((await runCli(['qc', '--json', '1'], offline)).stdout));
    expect(json.jobs[0]?.qc?.verdict).toBe('pass');
    expect(json.jobs[0]?.qc?.target.name).toBe('web');
    expect(json.jobs[0]?.qc?.loudness).toEqual(made.loudness);
    const after = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], offline)).stdout));
    expect(after.jobs.map((j) => [j.id, j.creditsCharged])).toEqual([[1, made.credits]]);

    // And back: the broadcast target fails it again, with the same words as the first check.
    const broadcast = await runCli(['qc', '--loudness', 'broadcast', '1'], offline);
    expect(broadcast.code).toBe(1);
    expect(broadcast.stdout).toMatch(AS_SOURCE);
  });
});
