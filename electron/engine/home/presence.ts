import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { makeFolderSync } from '../files/make-folder';

/** `<home>/running/`: one small file per Dubdesk that has this data folder open, removed when it closes. */
const FOLDER = 'running';

const Presence = z.object({
  pid: z.number().int(),
  host: z.string(),
  /** Which face: `cli`, `web` (`dubdesk serve`), `electron`. */
  face: z.string(),
  since: z.number(),
});
export type Presence = z.infer<typeof Presence>;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Says that this process has the data folder open (the CLI, `serve`, the desktop app) until the returned
 * function is called: a command that must run alone (`restore-db`) asks who else is there. A process
 * killed without closing leaves its file; its pid tells it is gone.
 */
export function announce(home: string, face: string): () => void {
  const dir = join(home, FOLDER);
  let file: string | null = null;
  try {
    makeFolderSync(dir, 0o700);
    file = join(dir, `${process.pid}-${randomBytes(4).toString('hex')}.json`);
    const me: Presence = { pid: process.pid, host: hostname(), face, since: Date.now() };
    writeFileSync(file, JSON.stringify(me), { mode: 0o600 });
  } catch {
    file = null; // a read-only home is named by what opens it next; this note is only a courtesy to others
  }
  return () => {
    if (file) rmSync(file, { force: true });
    file = null;
  };
}

/**
 * The other Dubdesk processes that have the data folder open now: on this machine, those whose pid lives
 * (a dead one's file is removed); on another (a shared folder), every one that says it is there.
 */
export function othersRunning(home: string): Presence[] {
  const dir = join(home, FOLDER);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Presence[] = [];
  for (const name of names) {
    const file = join(dir, name);
    let found: Presence;
    try {
      found = Presence.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      continue; // being written, or not ours
    }
    const here = found.host === hostname();
    if (here && found.pid === process.pid) continue;
    if (here && !alive(found.pid)) rmSync(file, { force: true });
    else out.push(found);
  }
  return out;
}
