import type Database from 'better-sqlite3';

const sourceIn = (r: 'new') => `
  INSERT INTO search_sources (source, source_name) VALUES (${r}.source, ${r}.source_name) ON CONFLICT DO NOTHING;`;
const sourceOut = (r: 'old') => `
  DELETE FROM search_sources WHERE source = ${r}.source AND source_name = ${r}.source_name
    AND NOT EXISTS (SELECT 1 FROM jobs WHERE source = ${r}.source AND source_name = ${r}.source_name);`;

/**
 * 13: the search index per source, not per job. A source goes to several languages: each job indexed its
 * name and path again (an FTS5 insert, trigrams and all, for each). `search_sources` holds each source and
 * name once, while any job has them (live or in the history); `source_search` is the trigram index over it
 * (external content, `detail=none`), kept by its own triggers. The list finds the sources, then their jobs.
 */
export function searchMigration(db: Database.Database): void {
  db.exec(`
    DROP TRIGGER jobs_insert_aggregates;
    DROP TRIGGER jobs_delete_aggregates;
    DROP TRIGGER jobs_update_search;
    DROP TABLE job_search;

    CREATE TABLE search_sources (
      id INTEGER PRIMARY KEY,
      source TEXT NOT NULL,
      source_name TEXT NOT NULL,
      UNIQUE (source, source_name)
    );
    INSERT INTO search_sources (source, source_name)
      SELECT source, source_name FROM jobs GROUP BY source, source_name ORDER BY min(id);
    CREATE VIRTUAL TABLE source_search USING fts5 (
      source_name, source, tokenize = 'trigram', detail = none, content = 'search_sources', content_rowid = 'id'
    );
    INSERT INTO source_search (source_search) VALUES ('rebuild');

    CREATE TRIGGER search_sources_insert AFTER INSERT ON search_sources BEGIN
      INSERT INTO source_search (rowid, source_name, source) VALUES (new.id, new.source_name, new.source);
    END;
    CREATE TRIGGER search_sources_delete AFTER DELETE ON search_sources BEGIN
      INSERT INTO source_search (source_search, rowid, source_name, source)
        VALUES ('delete', old.id, old.source_name, old.source);
    END;

    CREATE TRIGGER jobs_insert_search AFTER INSERT ON jobs BEGIN ${sourceIn('new')} END;
    CREATE TRIGGER jobs_delete_search AFTER DELETE ON jobs BEGIN ${sourceOut('old')} END;
    CREATE TRIGGER jobs_update_search AFTER UPDATE OF source, source_name ON jobs
      WHEN new.source IS NOT old.source OR new.source_name IS NOT old.source_name BEGIN
      ${sourceOut('old')}
      ${sourceIn('new')}
    END;
  `);
}
