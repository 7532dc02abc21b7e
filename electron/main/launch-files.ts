import { app } from 'electron';
import { FileBatcher, filesFromArgv, filesOfSecondLaunch, type LaunchContext } from './single-instance';

/**
 * Files named at launch, opened from the dock, or handed over by a second launch wait for the page; once it
 * listens, files that arrive one event at a time are handed over together. Both events are listened to from
 * the start (`open-file` before the app is ready, `second-instance` right after the lock is taken), so a
 * second launch during start-up keeps its files.
 */
export class LaunchFiles {
  /** The files this launch names (handed to the running instance when there is one). */
  readonly named: string[];
  private readonly early: string[];
  private batcher: FileBatcher | null = null;
  private reveal: () => void = () => {};

  constructor(
    argv: readonly string[],
    private readonly where: Omit<LaunchContext, 'cwd'> = {
      defaultApp: Boolean(process.defaultApp),
      appPath: app.getAppPath(),
    },
  ) {
    this.named = filesFromArgv(argv, { ...where, cwd: process.cwd() });
    this.early = [...this.named];
    app.on('open-file', (event, path) => {
      event.preventDefault();
      this.take([path]);
    });
  }

  /** Listens for second launches: call once this instance holds the lock. */
  listenForSecondLaunches(): void {
    app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
      this.take(filesOfSecondLaunch(argv, workingDirectory, additionalData, this.where));
      this.reveal();
    });
  }

  /**
   * The window is open and the page listens: the files that came before are handed to `addFiles`, and so is
   * every file from now on; a second launch also brings the window to the front (`show`).
   */
  handOver(addFiles: (paths: string[]) => void, show: () => void): void {
    this.batcher = new FileBatcher(addFiles);
    this.reveal = show;
    if (this.early.length) this.batcher.add(this.early.splice(0));
  }

  private take(paths: readonly string[]): void {
    if (this.batcher) this.batcher.add(paths);
    else this.early.push(...paths);
  }
}
