import { app } from 'electron';
import { FileBatcher, filesFromArgv } from './single-instance';

/**
 * Files named at launch, or opened from the dock before the app is ready, wait for the page; once it
 * listens, files that arrive one event at a time are handed over together.
 */
export class LaunchFiles {
  private readonly early: string[];
  private batcher: FileBatcher | null = null;

  constructor(argv: readonly string[]) {
    this.early = filesFromArgv(argv, { defaultApp: Boolean(process.defaultApp), cwd: process.cwd() });
    app.on('open-file', (event, path) => {
      event.preventDefault();
      if (this.batcher) this.batcher.add([path]);
      else this.early.push(path);
    });
  }

  /** From now on, files go to `addFiles` (the ones that came early wait for `handOverEarly`). */
  deliverTo(addFiles: (paths: string[]) => void): void {
    this.batcher = new FileBatcher(addFiles);
  }

  /** Files of a second launch, named relative to where it was started. */
  secondLaunch(argv: readonly string[], workingDirectory: string): string[] {
    return filesFromArgv(argv, { defaultApp: Boolean(process.defaultApp), cwd: workingDirectory });
  }

  /** The page listens: the files that came before it are handed over. */
  handOverEarly(): void {
    if (this.early.length) this.batcher?.add(this.early.splice(0));
  }
}
