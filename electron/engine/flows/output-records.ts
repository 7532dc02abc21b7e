import type { JobStore, OutputRow } from '../db/jobs';
import type { SavedResult } from '../db/own-results';

/**
 * What a job's download step records of its outputs. An output moved into place waits for the next record
 * written (one commit where there were three): until then it is recorded with its path and length, which a
 * resume recognises on disk, and known as a result by the file beside the database. With it go its file id
 * and content (`OwnResults`). The last of them go with the job's completion.
 */
export class OutputRecords {
  /** Moved into place, not yet recorded as done. */
  private readonly moved: OutputRow[] = [];
  /** Results saved, not yet recorded by file id and content. */
  private readonly saved: SavedResult[] = [];
  /** This job's outputs as recorded, or about to be: what an identical download is compared with. */
  readonly known: Map<string, OutputRow>;

  constructor(
    private readonly store: JobStore,
    existing: ReadonlyMap<string, OutputRow>,
  ) {
    this.known = new Map(existing);
  }

  /** Records `row` (and the result it saved), with what was moved into place since the last record. */
  put(row: OutputRow, saved?: SavedResult | null): void {
    if (saved) this.saved.push(saved);
    this.putAll([row]);
  }

  /** Records `rows` in one commit, with the outputs moved into place since the last record. */
  putAll(rows: readonly OutputRow[]): void {
    this.store.write(() => this.write(rows));
    this.written();
    for (const row of rows) this.known.set(row.type, row);
  }

  /** An output moved into place under the name recorded for it: done with the next record. */
  movedIntoPlace(row: OutputRow, saved: SavedResult | null): void {
    this.moved.push(row);
    if (saved) this.saved.push(saved);
    this.known.set(row.type, row);
  }

  /** Records the outputs moved into place (a later output failed: they are done all the same). */
  flush(): void {
    if (this.moved.length > 0 || this.saved.length > 0) this.recordMoved();
    this.written();
  }

  /**
   * The outputs moved into place, to record with the job's completion (in its transaction; again after it
   * if it failed: the same records written twice are the same records).
   */
  recordMoved = (): void => {
    this.store.write(() => this.write([]));
  };

  private write(rows: readonly OutputRow[]): void {
    this.store.outputs.putMany([...this.moved, ...rows]);
    for (const saved of this.saved) this.store.results.writeResult(saved);
  }

  /** What waited for a record is recorded (its commit went through). */
  private written(): void {
    this.moved.length = 0;
    this.saved.length = 0;
  }
}
