import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../electron/cli/exit-codes';
import { openDatabase } from '../../../electron/engine/db/open';
import { LockStore } from '../../../electron/engine/db/lock-store';
import { QueueLock } from '../../../electron/engine/runner/lock';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const CLI_DOC = fileURLToPath(new URL('../../../docs/cli.md', import.meta.url));

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

describe('dub while another Dubdesk works the queue', () => {
  it('says the job is queued and who dubs it, with a code that is not an error; a second dub of the same file too', async () => {
    const work = tempDir('dubdesk-held-');
    const home = join(work, 'home');
    const env = envFor(sb, home);
    const video = videoMp4(2, 'held talk.mp4');
    // The queue exists (a first add), then another live process (this one, as `serve` would) works it.
    expect((await runCli(['add', video, '--to', 'fr', '--out', 'out'], env, work)).code).toBe(0);
    const db = openDatabase(join(home, 'dubdesk.db'));
    const lock = QueueLock.acquire(new LockStore(db), home);
    try {
      for (const file of [videoMp4(2, 'held other.mp4'), video]) {
        const r = await runCli(['dub', file, '--to', 'fr', '--out', 'out'], env, work);
        expect(r.stderr).toMatch(/Queued 1 job|1 already queued/);
        expect(r.stderr).toContain(
          `another Dubdesk (pid ${process.pid}) is working this queue and dubs it; follow it with \`dubdesk status --watch\``,
        );
        expect(r.stderr).not.toMatch(/Let it finish, or stop it first/);
        expect(r.code, r.stderr).toBe(ExitCode.HandedToOther);
      }
    } finally {
      lock.release();
      db.close();
    }
    const doc = readFileSync(CLI_DOC, 'utf8');
    expect(doc).toMatch(
      new RegExp(`^\\| ${ExitCode.HandedToOther} \\| .*another Dubdesk.*status --watch`, 'm'),
    );
  });
});
