import { existsSync, linkSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Puts `part` (this process's finished copy of a fixture) at `path`, unless another's is there already.
 * Test processes share one fixture folder a run, and two that ask for the same fixture at once both make
 * it: the first copy stays, since a test may have queued it already. A link, unlike a rename, never
 * replaces a file (a rename over it gave it a new modification time: a source changed since its add).
 */
export function publishFixture(part: string, path: string): void {
  try {
    linkSync(part, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    rmSync(part, { force: true });
  }
}

/** A small fixture written once: `text` at `path`, unless another process's copy is there already. */
export function writeFixture(path: string, text: string): void {
  if (existsSync(path)) return;
  const part = join(dirname(path), `.${process.pid}.${basename(path)}`);
  writeFileSync(part, text);
  publishFixture(part, path);
}
