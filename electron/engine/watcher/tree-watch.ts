import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type * as ParcelWatcher from '@parcel/watcher';
import type { AsyncSubscription, Event, Options } from '@parcel/watcher';
import { inside } from './ignore';

/**
 * The native watcher, loaded when a folder is first watched: commands that watch none start without it.
 * Bundled for Electron (CommonJS), `require` loads it from node_modules or the unpacked asar, as the
 * keyring is (keys/os-key-store.ts); the CLI's bundle has a `require` too; tsx and the tests import it.
 */
const parcel = async (): Promise<typeof ParcelWatcher> =>
  typeof require === 'function'
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      (require('@parcel/watcher') as typeof ParcelWatcher)
    : import('@parcel/watcher');

export interface TreeWatchOptions {
  root: string;
  recursive: boolean;
  /** Where the folder's results go: not watched when inside it. */
  outRoot: string;
  /** Whether a path is none of the watcher's business (the folder's ignore rules). */
  ignored(path: string): boolean;
  /** Paths to look at: events, and what changed while the subscription was renewed. */
  seen(paths: readonly string[]): void;
  /** The folder itself was removed or moved away. */
  rootGone(): void;
  /** Events were lost (the system's queue overflowed): the folder needs a full scan. */
  lost(error: Error): void;
  /** The subscription was renewed: the folder needs a full scan. */
  rescan(): void;
}

/**
 * A folder tree's file-system events through `@parcel/watcher` (native: one watch per folder, set up by a
 * walk in C++), filtered by the folder's rules, and snapshots of the tree to ask later what changed since.
 *
 * On Linux its inotify backend watches a folder created after the start but not the folders already
 * inside it (parcel-bundler/watcher#97: `mkdir -p`, a tree moved or unpacked in), so nothing made in them
 * would ever be heard. When a new folder appears the subscription is renewed, which walks the tree again
 * and watches every folder, and the folder is scanned whole: what the new folders held (the backend may
 * know of files it never told of), and what changed while no subscription was live.
 */
export class TreeWatch {
  private sub: AsyncSubscription | null = null;
  private closed = false;
  /** Paths made (or changed) since the last look: a folder among them means a renewal. */
  private created = new Set<string>();
  private renewing: Promise<void> | null = null;

  constructor(private readonly o: TreeWatchOptions) {}

  /** What is not even watched: the results folder inside the tree, and subfolders of a flat folder. */
  get options(): Options {
    const { root, outRoot, recursive } = this.o;
    return {
      ignore: [
        ...(inside(root, outRoot) && outRoot !== root ? [outRoot] : []),
        ...(recursive ? [] : ['*/**']),
      ],
    };
  }

  /** Resolves once events are heard. */
  async start(): Promise<void> {
    this.sub = await this.subscribe();
    if (this.closed) await this.stop();
  }

  async stop(): Promise<void> {
    this.closed = true;
    const sub = this.sub;
    this.sub = null;
    await sub?.unsubscribe().catch(() => {});
  }

  /** Writes what the tree holds now (paths and times, from the live watch) to `file`. */
  async snapshot(file: string): Promise<void> {
    const { writeSnapshot } = await parcel();
    await writeSnapshot(this.o.root, file, this.options);
  }

  /** The paths (the folder's business) that differ from the snapshot in `file`. */
  async changedSince(file: string): Promise<string[]> {
    const { getEventsSince } = await parcel();
    return this.relevant(await getEventsSince(this.o.root, file, this.options));
  }

  private async subscribe(): Promise<AsyncSubscription> {
    let sub: AsyncSubscription | null = null;
    const onEvents = (err: Error | null, events: Event[]) => {
      if (this.closed || (sub && this.sub !== sub)) return;
      if (err) this.o.lost(err);
      if (events.some((e) => e.path === this.o.root)) this.o.rootGone();
      // A folder removed and made again at once comes as an `update` of it (the backend merges the two),
      // and its new subfolders may be unwatched and unreported: a stat tells whether it is a folder.
      if (this.o.recursive)
        for (const e of events) if (e.type !== 'delete' && e.path !== this.o.root) this.created.add(e.path);
      const paths = this.relevant(events);
      if (paths.length) this.o.seen(paths);
      if (this.created.size) this.renewSoon();
    };
    const { subscribe } = await parcel();
    sub = await subscribe(this.o.root, onEvents, this.options);
    return sub;
  }

  private relevant(events: readonly Event[]): string[] {
    const { root, recursive, ignored } = this.o;
    return events
      .map((e) => e.path)
      .filter((p) => p !== root && (recursive || dirname(p) === root) && !ignored(p));
  }

  private renewSoon(): void {
    this.renewing ??= this.renewIfNewFolders()
      .catch((e: unknown) => this.o.lost(e as Error))
      .finally(() => {
        this.renewing = null;
        if (this.created.size && !this.closed) this.renewSoon();
      });
  }

  private async renewIfNewFolders(): Promise<void> {
    const paths = [...this.created];
    this.created.clear();
    const isDir = await Promise.all(
      paths.map((p) =>
        stat(p).then(
          (s) => s.isDirectory(),
          () => false,
        ),
      ),
    );
    if (!isDir.some(Boolean) || this.closed || !this.sub) return;
    // Only once the last subscription of the tree ends does the next one walk it again.
    const old = this.sub;
    this.sub = null;
    await old.unsubscribe();
    if (this.closed) return;
    this.sub = await this.subscribe();
    if (this.closed) return this.stop();
    // What the new folders held, and what changed while no subscription was live: a full scan finds it.
    this.o.rescan();
  }
}
