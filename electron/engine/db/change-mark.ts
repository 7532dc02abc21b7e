import type { Db } from './types';

const totals = new WeakMap<Db, () => number>();

/**
 * A mark that moves whenever the database changes: rows this connection changed (`total_changes()`) and
 * commits by any other connection or process (`data_version`). Equal marks mean nothing was written in
 * between, so a question whose answer only a write can change need not be asked again.
 */
export function changeMark(db: Db): string {
  let total = totals.get(db);
  if (!total) {
    const st = db.prepare('SELECT total_changes()').pluck();
    total = () => st.get() as number;
    totals.set(db, total);
  }
  return `${total()}:${String(db.pragma('data_version', { simple: true }))}`;
}
