import type { JobFilter } from '../../../../shared/contract/jobs';

/** A job in the live list: neither cleared nor aged into the history (the partial indexes name this). */
export const LIVE = 'cleared_at IS NULL AND archived_at IS NULL';
/** A job of the history: finished, and out of the live list. */
export const PAST = 'cleared_at IS NOT NULL OR archived_at IS NOT NULL';

/** The trigram index answers searches of three characters or more; shorter ones read the list's rows. */
const TRIGRAM = 3;

const MATCHES = `(source_name LIKE @search ESCAPE '\\' OR source LIKE @search ESCAPE '\\')`;

/** A filter as SQL: the WHERE clause and its named parameters. Cleared and aged jobs are in the history only. */
export function where(filter: JobFilter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [filter.history ? `(${PAST})` : LIVE];
  const params: Record<string, unknown> = {};
  if (filter.states) {
    parts.push(`state IN (SELECT value FROM json_each(@states))`);
    params.states = JSON.stringify(filter.states);
  }
  if (filter.ids) {
    parts.push(`id IN (SELECT value FROM json_each(@ids))`);
    params.ids = JSON.stringify(filter.ids);
  }
  const text = filter.search?.trim();
  if (text) {
    params.search = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(
      [...text].length >= TRIGRAM
        ? // The sources whose name or path matches, then each job's own name and path.
          `source IN (SELECT source FROM search_sources WHERE id IN (
              SELECT rowid FROM source_search WHERE source_name LIKE @search ESCAPE '\\'
              UNION SELECT rowid FROM source_search WHERE source LIKE @search ESCAPE '\\'))
            AND ${MATCHES}`
        : MATCHES,
    );
  }
  if (filter.source !== undefined) {
    parts.push(`source = @source`);
    params.source = filter.source;
  }
  if (filter.path !== undefined) {
    parts.push(`(source = @path OR id IN (SELECT job_id FROM outputs WHERE path = @path AND done = 1))`);
    params.path = filter.path;
  }
  if (filter.watchFolderId !== undefined) {
    parts.push(`watch_folder_id = @watch`);
    params.watch = filter.watchFolderId;
  }
  return { sql: parts.join(' AND '), params };
}

/** Only states (or nothing) over the live list: what the maintained aggregates answer without reading jobs. */
export function onlyStates(filter: JobFilter): boolean {
  return Object.entries(filter).every(
    ([k, v]) => v === undefined || k === 'states' || (k === 'history' && v === false),
  );
}
