import { stringify } from 'csv-stringify/browser/esm/sync';
import { localTime, type SpendGroup, type SpendLine, type SpendRow } from './contract/spending';

/** The columns of the report by job, in order: the same in `dubdesk spend --csv` and the window's export. */
export const SPEND_COLUMNS = [
  'date',
  'job',
  'file',
  'language',
  'credits',
  'estimated',
  'studio',
  'folder',
  'batch',
] as const;

/**
 * CSV as spreadsheets read it: a header, then one line per row, every field quoted where needed. A field
 * that a spreadsheet would run as a formula (a file named `=HYPERLINK(…).mp4`) is written as text.
 */
const csv = (records: (string | number)[][]): string =>
  stringify(records, { escape_formulas: true, record_delimiter: '\r\n' });

/** One line per charged job. */
export function spendRowsCsv(rows: readonly SpendRow[]): string {
  return csv([
    [...SPEND_COLUMNS],
    ...rows.map((r) => [
      localTime(r.chargedAt),
      r.jobId,
      r.source,
      r.language,
      r.credits,
      r.estimatedCredits ?? '',
      r.studio ? 'yes' : 'no',
      r.folder,
      r.batch ?? '',
    ]),
  ]);
}

/** One line per day, month, batch, folder or language. */
export function spendLinesCsv(lines: readonly SpendLine[], by: Exclude<SpendGroup, 'job'>): string {
  return csv([[by, 'jobs', 'credits'], ...lines.map((l) => [l.key, l.jobs, l.credits])]);
}
