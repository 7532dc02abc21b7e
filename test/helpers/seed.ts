import { join } from 'node:path';
import { storeAt } from './store';
import { type NewJob } from '../../electron/engine/db/jobs';
import { enqueue } from '../../electron/engine/jobs/life';

/**
 * Puts `sources` x `languages` queued jobs straight into a data folder's queue, in one transaction, the
 * way the benchmarks do: far faster than adding real files. They belong to a service nobody runs, so no
 * worker picks them up; they are there to be listed.
 */
export function seedQueue(
  home: string,
  sources: number,
  languages: readonly string[],
  service = 'http://127.0.0.1:9',
): number {
  const store = storeAt(join(home, 'dubdesk.db'));
  let count = 0;
  try {
    store.db.transaction(() => {
      for (let i = 0; i < sources; i++) {
        const name = `${i % 7 === 0 ? 'interview with a very long descriptive file name, take ' : 'clip-'}${String(i).padStart(5, '0')}.mp4`;
        for (const lang of languages) {
          const job: NewJob = {
            source: `/videos/seeded/${name}`,
            source_kind: 'file',
            source_name: name,
            source_type: 'video/mp4',
            source_bytes: 1_000_000 + i,
            source_mtime: 1,
            duration: 30 + (i % 600),
            dest_lang: lang,
            source_lang: 'auto',
            api: 'v2',
            studio: 0,
            out_dir: '/videos/seeded',
            outputs_wanted: '"default"',
            naming: 'suffix',
            service,
            watch_folder_id: null,
            upload_once: 0,
          };
          enqueue(store, job, null);
          count++;
        }
      }
    })();
  } finally {
    store.db.close();
  }
  return count;
}
