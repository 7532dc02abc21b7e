import type Database from 'better-sqlite3';

/**
 * Migration 14: what a restart over big watched folders need not look through again.
 * - `outcomes_signature`: the folder's jobs as they were when its outcomes were last recorded.
 * - `snapshot`: the file name of its tree's snapshot as of its last catch-up (watcher/snapshots.ts).
 * - `counts`: its files' status counts as of `counts_at`, a value of `counts_version`, which triggers move
 *   at every change that can change a count (a file row, a link, the state of a linked job): a folder
 *   view reads the stored counts until then, instead of every file and job of the folder.
 * - An index of the files whose original could not be moved, looked at again after each scan.
 */
export function watchRestartMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE watch_folders ADD COLUMN outcomes_signature TEXT NOT NULL DEFAULT '';
    ALTER TABLE watch_folders ADD COLUMN snapshot TEXT;
    ALTER TABLE watch_folders ADD COLUMN counts_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE watch_folders ADD COLUMN counts TEXT;
    ALTER TABLE watch_folders ADD COLUMN counts_at INTEGER NOT NULL DEFAULT -1;
    CREATE INDEX watch_files_problem ON watch_files (folder_id) WHERE problem IS NOT NULL;

    CREATE TRIGGER watch_counts_file_insert AFTER INSERT ON watch_files BEGIN
      UPDATE watch_folders SET counts_version = counts_version + 1 WHERE id = NEW.folder_id;
    END;
    CREATE TRIGGER watch_counts_file_update AFTER UPDATE ON watch_files BEGIN
      UPDATE watch_folders SET counts_version = counts_version + 1 WHERE id IN (OLD.folder_id, NEW.folder_id);
    END;
    CREATE TRIGGER watch_counts_file_delete AFTER DELETE ON watch_files BEGIN
      UPDATE watch_folders SET counts_version = counts_version + 1 WHERE id = OLD.folder_id;
    END;
    CREATE TRIGGER watch_counts_link_insert AFTER INSERT ON watch_file_jobs BEGIN
      UPDATE watch_folders SET counts_version = counts_version + 1
        WHERE id = (SELECT folder_id FROM watch_files WHERE id = NEW.file_id);
    END;
    CREATE TRIGGER watch_counts_link_delete AFTER DELETE ON watch_file_jobs BEGIN
      UPDATE watch_folders SET counts_version = counts_version + 1
        WHERE id = (SELECT folder_id FROM watch_files WHERE id = OLD.file_id);
    END;
    CREATE TRIGGER watch_counts_job AFTER UPDATE OF state ON jobs BEGIN
      UPDATE watch_folders SET counts_version = counts_version + 1 WHERE id IN (
        SELECT f.folder_id FROM watch_file_jobs l JOIN watch_files f ON f.id = l.file_id WHERE l.job_id = NEW.id);
    END;
    CREATE TRIGGER watch_counts_job_delete AFTER DELETE ON jobs BEGIN
      UPDATE watch_folders SET counts_version = counts_version + 1 WHERE id IN (
        SELECT f.folder_id FROM watch_file_jobs l JOIN watch_files f ON f.id = l.file_id WHERE l.job_id = OLD.id);
    END;
  `);
}
