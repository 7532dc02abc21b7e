/**
 * kill -9 while the finished dubs are being checked (QC) and before their package is made, then the same
 * `dub` again: it finishes what is made here of its own files (QC, the package) at no charge, instead of
 * "Nothing new to dub" with QC "not checked yet" and no package until `run --until-done`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QcJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { copyAs, talkVideo } from '../../helpers/deliver-media';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

const QC_UNDER_WAY = /downloaded; checking it here \(QC\)/g;

/** A `dub` killed (SIGKILL) as soon as it says both its dubs are being checked; its data folder and source. */
async function killedDuringQc() {
  const work = tempDir('dubdesk-kill-qc-');
  // Half a minute: its check (the source's sound, then each dub's) is still under way when the kill lands.
  const source = copyAs(talkVideo(30), 'réunion du lundi.mp4');
  const env = envFor(sb, join(work, 'home'));
  const args = ['dub', source, '--to', 'es,fr', '--package', 'mkv', '--poll-interval', '0.2'];
  const { child, done } = startCli(args, env);
  let said = '';
  child.stderr?.on('data', (d: Buffer) => {
    said += d.toString();
    if ((said.match(QC_UNDER_WAY) ?? []).length >= 2) child.kill('SIGKILL');
  });
  const killed = await done;
  const qc = QcJson.parse(JSON.parse((await runCli(['qc', '--json'], env)).stdout));
  return { env, args, source, killed, unchecked: qc.jobs.filter((j) => j.qc === null).length };
}

describe('kill -9 during QC, then the same dub again', () => {
  it('finishes the QC and the package of its own dubs, charging nothing again', async () => {
    let run = await killedDuringQc();
    // The kill must land before the checks were recorded (the scenario); a machine that raced past it tries again.
    for (let attempt = 1; attempt < 3 && run.unchecked === 0; attempt++) run = await killedDuringQc();
    expect(run.killed.signal).toBe('SIGKILL');
    expect(run.unchecked).toBeGreaterThan(0);
    const charged = startedDubs(sb).length;
    const pkg = join(run.source, '..', 'réunion du lundi.multi.mkv');

    const again = await runCli(run.args, run.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /already dubbed: job #1 .*\n.*already dubbed: job #2 .*\nNothing new to dub: 2 already dubbed, 0 queued; finishing what is made here of them \(QC, package\): nothing is charged\.\n/,
    );
    expect(again.stderr).toContain(`package: ${pkg} (es, fr)`);
    expect(existsSync(pkg)).toBe(true);
    const qc = QcJson.parse(JSON.parse((await runCli(['qc', '--json'], run.env)).stdout));
    expect(qc.jobs.map((j) => j.qc?.verdict)).toEqual(['pass', 'pass']);
    expect(startedDubs(sb).length).toBe(charged);

    // Once all is made, the same dub again has nothing to finish: it says so and runs nothing.
    const third = await runCli(run.args, run.env);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toMatch(/Nothing new to dub: 2 already dubbed, 0 queued\.\n$/);
    // Three runs of a dub of half a minute in two languages, one killed: longer than one test's default.
  }, 240_000);
});
