import Database from 'better-sqlite3';
import { INSANE_FIGURES_SQL } from './job-store/rows';

/** What a look at the queue's file found: SQLite's own problems, and jobs holding figures no dub can have. */
export interface DatabaseLook {
  problems: string[];
  oddJobs: number[];
}

/**
 * `PRAGMA quick_check` and the jobs with insane figures, on a read-only connection of its own: the file is
 * looked at, never changed, even while another Dubdesk has it open. Throws when it cannot be read at all.
 */
export function lookAtDatabase(file: string): DatabaseLook {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
    if (problems.length) return { problems, oddJobs: [] };
    const oddJobs = (db.prepare(INSANE_FIGURES_SQL).all() as { id: number }[]).map((r) => r.id);
    return { problems, oddJobs };
  } finally {
    db.close();
  }
}
