/**
 * kill -9 right after a downloaded output was moved to its name, before anything recorded it as done: the
 * next run finds it whole on disk and takes it as it is. It must also know it for a result of its own, so a
 * copy of it added later is never taken (and paid for) as a new source.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, killedAtHold, runCli } from '../../helpers/cli';
import { engineFor, quickRun } from '../../helpers/engine';
import { audioMp3 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

const HOLD = 'output-moved';

describe('kill -9 between an output moved into place and its record', () => {
  it('the next run records it as done and as a result: a copy of it is not a new source', async () => {
    const work = tempDir('dubdesk-moved-crash-');
    const source = join(work, 'talk.mp3');
    copyFileSync(audioMp3(2, 'moved-crash.mp3'), source);
    const home = join(work, 'home');
    const env = envFor(sb, home);
    const added = await runCli(['add', source, '--to', 'es'], env);
    expect(added.code, added.stderr).toBe(0);

    await killedAtHold(HOLD, ['run', '--until-done', '--poll-interval', '0.2'], env);
    const result = join(work, 'talk.es.mp3');
    expect(existsSync(result)).toBe(true);

    const host = engineFor(sb, home);
    try {
      expect(await host.run(quickRun())).toBe('done');
      const paid = sb.state.ledger.length;
      expect(paid).toBe(1);
      // The result copied into another folder: new inode, the same bytes.
      const elsewhere = join(tempDir('dubdesk-moved-crash-'), 'copies');
      mkdirSync(elsewhere);
      copyFileSync(result, join(elsewhere, basename(result)));
      const estimate = await host.api.estimate({ inputs: [elsewhere], to: ['fr'] });
      expect(estimate.jobs, JSON.stringify(estimate.files)).toBe(0);
      expect(estimate.files[0]?.problem?.message).toContain(
        "is a copy of Dubdesk's result talk.es.mp3; not dubbed",
      );
    } finally {
      await host.close();
    }
  }, 120_000);
});
