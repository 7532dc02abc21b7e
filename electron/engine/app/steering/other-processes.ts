import type { Db } from '../../db/open';
import { onForeignWrites } from '../../queue/foreign-writes';

/** Faces are told at most this often while another process writes (a run's progress writes many times a second). */
const AT_MOST_EVERY_MS = 250;

/**
 * Tells this engine's faces when another process committed to the queue (a `dubdesk run` in a terminal
 * while `status --watch` or the window looks on): `changed` runs at most every 250 ms while the commits
 * go on, and once after the last. Returns what stops it.
 */
export function followOtherProcesses(db: Db, changed: () => void): () => void {
  let timer: NodeJS.Timeout | null = null;
  let again = false;
  const tell = () => {
    if (timer) {
      again = true;
      return;
    }
    changed();
    timer = setTimeout(() => {
      timer = null;
      if (again) {
        again = false;
        tell();
      }
    }, AT_MOST_EVERY_MS);
    timer.unref();
  };
  const stop = onForeignWrites(db, tell);
  return () => {
    stop();
    if (timer) clearTimeout(timer);
  };
}
