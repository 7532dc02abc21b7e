import type Database from 'better-sqlite3';

/** What a change of a job's charge adds to the ledger: a charge set or corrected; never taken back. */
const ADDED = `coalesce(new.credits_charged, old.credits_charged, 0) - coalesce(old.credits_charged, 0)`;

/**
 * 15: every credit the queue has recorded as charged, per service, kept by triggers in the same statement as
 * the write (by any process) and never lowered by a clear, the history or a retry. The balance shown is
 * reconciled with it: a charge recorded after the balance was read is still counted as committed until the
 * next read (app/account/credit-anchor.ts).
 */
export function ledgerMigration(db: Database.Database): void {
  db.exec(`
    CREATE TABLE charge_ledger (service TEXT PRIMARY KEY, charged INTEGER NOT NULL) WITHOUT ROWID;
    INSERT INTO charge_ledger (service, charged)
      SELECT service, sum(credits_charged) FROM jobs WHERE credits_charged > 0 GROUP BY service;
    CREATE TRIGGER jobs_insert_ledger AFTER INSERT ON jobs WHEN new.credits_charged > 0 BEGIN
      INSERT INTO charge_ledger (service, charged) VALUES (new.service, new.credits_charged)
        ON CONFLICT (service) DO UPDATE SET charged = charged + excluded.charged;
    END;
    CREATE TRIGGER jobs_update_ledger AFTER UPDATE OF credits_charged ON jobs
      WHEN new.credits_charged IS NOT old.credits_charged AND ${ADDED} <> 0 BEGIN
      INSERT INTO charge_ledger (service, charged) VALUES (new.service, ${ADDED})
        ON CONFLICT (service) DO UPDATE SET charged = charged + excluded.charged;
    END;
  `);
}
