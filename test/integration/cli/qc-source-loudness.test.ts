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
      /Dubbing it again would give the same\. If it goes to a web platform, pick the web target \(-14 LUFS\): --loudness web/,
    );
    expect(qc.stdout).toMatch(/source -1[345]\.\d LUFS/);

    const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    const job = status.jobs[0];
    expect(job?.qc?.problems.find((p) => p.code === 'loudness')?.message).toMatch(AS_SOURCE);
    const measured = loudnormMeasure(source).integrated;
    expect(Math.abs((job?.qc?.loudness.source ?? 0) - measured)).toBeLessThanOrEqual(1);

    // What the remedy says works: the web target, asked for with the flag it names, passes the same sound.
    const web = await runCli(
      ['dub', source, '--to', 'es', '--again', '--loudness', 'web', '--poll-interval', '0.2'],
      env,
    );
    expect(web.code, web.stderr).toBe(0);
    const json = QcJson.parse(JSON.parse((await runCli(['qc', '--json', '2'], env)).stdout));
    expect(json.jobs[0]?.qc?.verdict).toBe('pass');
    expect(json.jobs[0]?.qc?.target.name).toBe('web');
  });
});
