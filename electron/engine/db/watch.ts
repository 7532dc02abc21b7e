import type { Db } from './types';
import { StoredCounts } from './watch-store/stored-counts';
import { WatchFiles } from './watch-store/files';
import { WatchFolderRows } from './watch-store/folders';
import { WatchHeartbeat } from './watch-store/heartbeat';
import { WatchLinks } from './watch-store/links';
import { WatchViews } from './watch-store/views';

export {
  FILE_ROW_STATUSES,
  WatchFileRow,
  WatchFolderRow,
  type FilePatch,
  type FileRowStatus,
  type FilesFilter,
  type LinkedJob,
  type Outcome,
  type PresentRow,
  type WatchFileViewRow,
} from './watch-store/rows';

/**
 * Every query on the watch tables, one part per concern (`watch-store/`), each found by its name:
 * `folders`, `files`, `links` (files to jobs), `views` (what the user sees of files), `counts` (each
 * folder's status counts, stored), `beat` (the watching process's heartbeat).
 */
export class WatchStore {
  readonly folders: WatchFolderRows;
  readonly files: WatchFiles;
  readonly links: WatchLinks;
  readonly views: WatchViews;
  readonly counts: StoredCounts;
  readonly beat: WatchHeartbeat;

  constructor(db: Db) {
    this.folders = new WatchFolderRows(db);
    this.files = new WatchFiles(db);
    this.links = new WatchLinks(db);
    this.views = new WatchViews(db, this.files);
    this.counts = new StoredCounts(db, this.views);
    this.beat = new WatchHeartbeat(db);
  }
}
