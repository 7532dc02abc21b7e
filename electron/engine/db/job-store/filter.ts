import type { JobFilter } from '../../../../shared/contract/jobs';

/** A filter as SQL: the WHERE clause and its named parameters. Cleared jobs are in no list. */
export function where(filter: JobFilter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = ['cleared_at IS NULL'];
  const params: Record<string, unknown> = {};
  if (filter.states) {
    parts.push(`state IN (SELECT value FROM json_each(@states))`);
    params.states = JSON.stringify(filter.states);
  }
  if (filter.ids) {
    parts.push(`id IN (SELECT value FROM json_each(@ids))`);
    params.ids = JSON.stringify(filter.ids);
  }
  if (filter.search?.trim()) {
    parts.push(`(source_name LIKE @search ESCAPE '\\' OR source LIKE @search ESCAPE '\\')`);
    params.search = `%${filter.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
