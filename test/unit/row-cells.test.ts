/**
 * A job's row is read again at every step; `parseJobRow` parses only the cells that changed since its last
 * parse of that job. It must give exactly what `JobRow.parse` gives, check again every cell anyone changed
 * (another process, a hand edit), and fail as `JobRow.parse` fails. A real SQLite file, rows as it returns them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJobRow } from '../../electron/engine/db/job-store/row-cells';
import { JobRow } from '../../electron/engine/db/job-store/rows';
import { newJob } from '../helpers/new-job';
import { storeAt } from '../helpers/store';
import { tempDir } from '../helpers/temp-dir';

describe('a job row parsed by the cells that changed', () => {
  it('is what JobRow.parse gives, read after read, whoever wrote the cells', () => {
    const store = storeAt(join(tempDir('dubdesk-row-cells-'), 'dubdesk.db'));
    const id = store.writes.insert(newJob('/talks/réunion été.mp4'), 1_000);
    const raw = () => store.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id);
    const edits = [
      `UPDATE jobs SET state = 'uploading', step = 'submit', updated_at = 2000`,
      `UPDATE jobs SET abandoned_remote_ids = '["d1","d2"]', remote_id = 'd3'`,
      // Written by hand or by an older Dubdesk: the figure reads as unknown, as JobRow.parse reads it.
      `UPDATE jobs SET credits_charged = -5, measured_duration = 'lots'`,
      `UPDATE jobs SET abandoned_remote_ids = 'not json', credits_charged = 12`,
    ];
    expect(parseJobRow(raw())).toEqual(JobRow.parse(raw()));
    for (const sql of edits) {
      store.db.exec(`${sql} WHERE id = ${id}`);
      expect(parseJobRow(raw()), sql).toEqual(JobRow.parse(raw()));
    }
    const read = parseJobRow(raw());
    read.abandoned_remote_ids.push('mutated by a caller');
    expect(parseJobRow(raw()).abandoned_remote_ids).toEqual([]);
  });

  it('a changed cell that is not valid fails as JobRow.parse fails', () => {
    const store = storeAt(join(tempDir('dubdesk-row-cells-'), 'dubdesk.db'));
    const id = store.writes.insert(newJob('/talks/a.mp4'), 1_000);
    const raw = () => store.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id);
    parseJobRow(raw());
    store.db.exec(`UPDATE jobs SET state = 'exploded' WHERE id = ${id}`);
    const expected = (() => {
      try {
        JobRow.parse(raw());
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(expected).not.toBeNull();
    expect(() => parseJobRow(raw())).toThrow((expected as Error).message);
  });
});
