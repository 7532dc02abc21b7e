import type { JobStore, OutputRow } from '../db/jobs';

/**
 * What a job's download step records of its outputs. An output moved into place waits for the next record
 * written (one commit where there were two): until then it is recorded with its path and length, which a
 * resume recognises on disk. The last of them go with the job's completion.
 */
export class OutputRecords {
  /** Moved into place, not yet recorded as done. */
  private readonly moved: OutputRow[] = [];
  /** This job's outputs as recorded, or about to be: what an identical download is compared with. */
  readonly known: Map<string, OutputRow>;

  constructor(
    private readonly store: JobStore,
    existing: ReadonlyMap<string, OutputRow>,
  ) {
    this.known = new Map(existing);
  }

  /** Records `row`, with the outputs moved into place since the last record. */
  put(row: OutputRow): void {
    this.putAll([row]);
  }

  /** Records `rows` in one commit, with the outputs moved into place since the last record. */
  putAll(rows: readonly OutputRow[]): void {
    this.store.outputs.putMany([...this.moved.splice(0), ...rows]);
    for (const row of rows) this.known.set(row.type, row);
  }

  /** An output moved into place under the name recorded for it: done with the next record. */
  movedIntoPlace(row: OutputRow): void {
    this.moved.push(row);
    this.known.set(row.type, row);
  }

  /** Records the outputs moved into place (a later output failed: they are done all the same). */
  flush(): void {
    if (this.moved.length > 0) this.store.outputs.putMany(this.moved.splice(0));
  }

  /** The outputs moved into place, to record with the job's completion (in its transaction). */
  recordMoved = (): void => {
    this.store.outputs.putMany(this.moved);
  };
}
