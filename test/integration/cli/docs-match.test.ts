/**
 * docs/cli.md says what the CLI prints: the checks `dubdesk doctor` makes and the summary lines of `dub` and
 * `run`. Each is read from the document and compared with what the command really prints.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const CLI_MD = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');

/** The doctor row of the commands table: "… a line per check: Runtime, …, Log; …". */
function documentedChecks(): string[] {
  const row = CLI_MD.split('\n').find((l) => l.startsWith('| `dubdesk doctor'));
  const list = /a line per check: ([^;]+);/.exec(row ?? '')?.[1];
  if (!list) throw new Error('docs/cli.md: no "a line per check: …;" in the doctor row');
  return list
    .split(',')
    .map((name) => name.replace(/\(.*?\)/g, '').trim())
    .filter((name) => name !== 'System' || process.platform === 'linux');
}

/** A summary line quoted in docs/cli.md (`This batch: 2 completed, …`) as a pattern: any number in place of each. */
function documentedLine(prefix: string): RegExp {
  const quoted = new RegExp(`\`(${prefix}[^\`]*)\``).exec(CLI_MD)?.[1];
  if (!quoted) throw new Error(`docs/cli.md quotes no \`${prefix}…\` line`);
  const escaped = quoted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+');
  return new RegExp(`^${escaped}$`, 'm');
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

describe('docs/cli.md matches what the CLI prints', () => {
  it('lists the checks doctor makes, by the names it prints, in its order', async () => {
    // With the service chosen every check runs (the built-in sandbox is checked on its own then).
    const r = await runCli(['doctor', '--json'], envFor(sb, tempDir()));
    const real = (JSON.parse(r.stdout) as { checks: { title: string }[] }).checks.map((c) => c.title);
    expect(documentedChecks()).toEqual(real);
  });

  it('quotes the summary lines `dub` and `run` print', async () => {
    const work = tempDir();
    const env = envFor(sb, join(work, 'home'));
    const dub = await runCli(['dub', videoMp4(2, 'docs-talk.mp4'), '--to', 'es', '--out', work], env);
    expect(dub.code, dub.stderr).toBe(0);
    expect(dub.stderr).toMatch(documentedLine('This batch:'));
    expect(dub.stderr).not.toMatch(/^Queue \(all jobs\)/m);
    const add = await runCli(['add', videoMp4(2, 'docs-next.mp4'), '--to', 'es', '--out', work], env);
    expect(add.code, add.stderr).toBe(0);
    const run = await runCli(['run', '--until-done'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(documentedLine('This run:'));
    expect(run.stderr).toMatch(documentedLine('Queue \\(all jobs\\):'));
  });
});
