/**
 * Credits read the same way wherever the CLI prints them: estimate's table wrote "1,200" and its total
 * "1200 credits" below it. Grouped in thousands as the CLI's other counts are ("1,200 jobs"); JSON keeps
 * plain numbers for scripts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EstimateJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { audioMp3 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 1, balance: 36_000 });
});
afterAll(() => sb.stop());

/** A count of four digits or more written without its thousands separator. */
const UNGROUPED = /(?<![\d.,])\d{4,}(?![\d.,])/;

describe('credits in the CLI’s words', () => {
  it('are grouped in thousands in estimate’s table and total, add, status and me alike', async () => {
    const work = tempDir('dubdesk-credit-grouping-');
    const env = envFor(sb, join(work, 'home'));
    // Three languages in studio quality: over a thousand credits for a few minutes of sound.
    const talk = audioMp3(200, 'grouped talk.mp3');
    const args = [talk, '--to', 'es,fr,de', '--studio'];
    const json = await runCli(['estimate', ...args, '--json'], env, work);
    const credits = EstimateJson.parse(JSON.parse(json.stdout)).credits;
    expect(credits).toBeGreaterThanOrEqual(1000);
    const grouped = credits.toLocaleString('en-US');

    const estimate = await runCli(['estimate', ...args], env, work);
    expect(estimate.code, estimate.stderr).toBe(0);
    expect(estimate.stdout).toMatch(new RegExp(`grouped talk\\.mp3 +3:2\\d +${grouped}\\n`));
    expect(estimate.stdout).toContain(`about ${grouped} credits`);
    expect(estimate.stdout).toContain('Balance: 36,000');
    expect(estimate.stdout).not.toMatch(UNGROUPED);

    const added = await runCli(['add', ...args, '--out', 'out'], env, work);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(`about ${grouped} credits`);
    expect(added.stderr).not.toMatch(UNGROUPED);

    const status = await runCli(['status'], env, work);
    expect(status.stdout).toContain(`Credits: balance 36,000, ${grouped} committed`);
    expect(status.stdout.split('\n').filter((l) => l.startsWith('Credits:'))).toHaveLength(1);
    expect(status.stdout.slice(status.stdout.indexOf('Credits:'))).not.toMatch(UNGROUPED);

    const me = await runCli(['me'], env, work);
    expect(me.stdout).toContain('Balance: 36,000 credits');
  });
});
