import type { EventListener } from './contract/events';
import type { DubdeskApi } from './contract/methods';

/** What a job's preview can play: the dubbed media, the original at the same position, subtitles, the poster. */
export const MEDIA_KINDS = ['dub', 'original', 'subtitles', 'poster'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * What a desktop face tells the page on its own: files to add (a second launch with files, files dropped on
 * the dock icon, "Open with Dubdesk", File > Add Files), a job to show (its notification was clicked), or a
 * menu command for the page (Edit > Find, Preferences).
 */
export type ShellEvent =
  | { type: 'open-files'; paths: string[] }
  | { type: 'show-job'; id: number }
  | { type: 'command'; command: 'find' | 'preferences' };

/** The desktop app's updates as Settings shows them: the version running and the one found, if any. */
export interface UpdateView {
  status: 'off' | 'manual' | 'idle' | 'checking' | 'up-to-date' | 'downloading' | 'ready' | 'failed';
  current: string;
  available: string | null;
  percent: number | null;
  error: string | null;
  /** Why updates are not installed automatically (`manual`): download new versions by hand. */
  reason?: string | null;
}

/** The DOM File, described by shape so shared/ needs no DOM types. */
export interface BrowserFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

/**
 * Everything the renderer gets: the contract, plus what only its face can do. Electron implements it in
 * the preload (`window.dubdesk`), web mode over HTTP + SSE to `dubdesk serve`. The renderer sees nothing else.
 */
export interface FaceBridge extends DubdeskApi {
  readonly shell: 'electron' | 'web';
  /**
   * The engine's events, as DubdeskApi's. `opened` runs each time events start to reach `listener` from a new
   * subscription (the first, and each one after a break): what the page shows is fetched then, not before,
   * or a change made in between reaches it by no event. In the browser it also runs when the first try to
   * open the stream failed, so the page's answers can say why.
   */
  subscribe(listener: EventListener, opened?: () => void): () => void;
  /** A URL for <video>/<track>/<img> serving one job's media (only the job's own files are ever served). */
  mediaUrl(jobId: number, kind: MediaKind): string;
  /**
   * Files the user dropped or picked, as paths the engine can read. Electron: their real paths. Web: the
   * files are streamed to the engine's staging folder first (progress in bytes).
   */
  stageFiles(
    files: readonly BrowserFile[],
    onProgress?: (sent: number, total: number) => void,
  ): Promise<string[]>;
  /** Native pickers where the face has them (Electron); null where it has not (web: use <input type=file>). */
  pickFiles(): Promise<string[] | null>;
  pickFolder(): Promise<string | null>;
  /**
   * Web only: a URL that downloads a job's n-th output (the files are on the machine `serve` runs on, which
   * may not be this one). Absent in Electron, which opens and reveals them instead.
   */
  downloadUrl?(jobId: number, index: number): string;
  /** Web only: a URL that downloads the finished files of these jobs as one zip, `<name>.zip`. */
  resultsZipUrl?(jobIds: readonly number[], name: string): string;
  /**
   * Web only: where a batch of files sent from the browser is saved when no folder is chosen (their own
   * folder is serve's staging folder): the default output folder, else Downloads/Dubdesk.
   */
  uploadsFolder?(): Promise<string>;
  /** Whether files can be revealed and opened on this machine (Electron: yes; web: the files are elsewhere). */
  readonly canReveal: boolean;
  showInFolder(path: string): Promise<void>;
  openPath(path: string): Promise<void>;
  /** Desktop only (absent in web mode): events from the shell; returns the function that ends the subscription. */
  onShellEvent?(listener: (event: ShellEvent) => void): () => void;
  /** Desktop only (absent in web mode): checks for an update now; a newer one downloads, installed on quit. */
  checkForUpdates?(): Promise<UpdateView>;
}
