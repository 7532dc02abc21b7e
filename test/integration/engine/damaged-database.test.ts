import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DubdeskError } from '../../../shared/contract/errors';
import { restoreDatabase } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { allJobs, engineFor } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

/** A home whose queue holds one job, opened twice: the second start backs the job up. */
async function homeWithAJob(): Promise<{ sb: Sandbox; home: string; db: string }> {
  const sb = await startSandbox({ pipelineSeconds: 0.3 });
  sandboxes.push(sb);
  const home = tempDir();
  const first = engineFor(sb, home);
  await first.api.add({ inputs: [videoMp4(2, 'keep-me.mp4')], to: ['es'], outDir: tempDir() });
  await first.close();
  await engineFor(sb, home).close();
  return { sb, home, db: join(home, 'dubdesk.db') };
}

function openError(sb: Sandbox, home: string): DubdeskError {
  try {
    const e = engineFor(sb, home);
    void e.close();
  } catch (e) {
    if (e instanceof DubdeskError) return e;
    throw new Error(`a raw error, not a DubdeskError: ${String(e)}`, { cause: e });
  }
  throw new Error('the damaged database opened');
}

describe('a damaged queue database', () => {
  it('keeps the last 3 backups in the home, made at start', async () => {
    const { sb, home } = await homeWithAJob();
    for (let i = 0; i < 3; i++) {
      const e = engineFor(sb, home);
      await e.api.add({ inputs: [videoMp4(1, `more-${i}.mp4`)], to: ['fr'], outDir: tempDir() });
      await e.close();
    }
    await engineFor(sb, home).close();
    const backups = readdirSync(join(home, 'backups')).filter((f) => f.endsWith('.db'));
    expect(backups).toHaveLength(3);
  });

  it('keeps one from hours before a busy stretch of commands, for damage found late', async () => {
    const { sb, home } = await homeWithAJob();
    const folder = join(home, 'backups');
    const [early] = readdirSync(folder).filter((f) => f.endsWith('.db'));
    const threeHoursAgo = new Date(Date.now() - 3 * 3_600_000);
    utimesSync(join(folder, early ?? ''), threeHoursAgo, threeHoursAgo);
    for (let i = 0; i < 4; i++) {
      const e = engineFor(sb, home);
      await e.api.add({ inputs: [videoMp4(1, `busy-${i}.mp4`)], to: ['fr'], outDir: tempDir() });
      await e.close();
    }
    await engineFor(sb, home).close();
    const backups = readdirSync(folder).filter((f) => f.endsWith('.db'));
    expect(backups).toContain(early);
    expect(backups).toHaveLength(4);
  });

  it.each([
    ['truncated', (db: string) => truncateSync(db, Math.floor(statSync(db).size / 3))],
    [
      'bit-flipped in its schema',
      (db: string) => {
        const bytes = readFileSync(db);
        // The schema's row for the table: type, name and table name, stored back to back (older copies of
        // it linger in free space after migrations, so every one is hit).
        let flipped = 0;
        for (let at = bytes.indexOf('tablejobsjobs'); at >= 0; at = bytes.indexOf('tablejobsjobs', at + 1)) {
          bytes.writeUInt8((bytes.readUInt8(at + 7) ^ 0x80) & 0xff, at + 7); // "jobs" -> "jo�s": a table SQLite cannot find
          flipped++;
        }
        expect(flipped).toBeGreaterThan(0);
        writeFileSync(db, bytes);
      },
    ],
    ['overwritten with junk', (db: string) => writeFileSync(db, Buffer.alloc(8192, 0x5a))],
  ])(
    '%s: named with the remedy, and restored from the newest backup with nothing lost',
    async (_, damage) => {
      const { sb, home, db } = await homeWithAJob();
      damage(db);

      const err = openError(sb, home);
      expect(err.message).toContain(db);
      expect(err.message).not.toMatch(/no such table|malformed|not a database/);
      expect(err.remedy).toContain('dubdesk restore-db');

      const restored = restoreDatabase(home);
      expect(existsSync(restored.damagedKeptAs ?? '')).toBe(true); // the damaged file is kept, not deleted
      const e = engineFor(sb, home);
      try {
        expect((await allJobs(e.api)).map((j) => j.sourceName)).toEqual(['keep-me.mp4']);
      } finally {
        await e.close();
      }
    },
  );
});
