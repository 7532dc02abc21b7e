import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { REDIRECT_FOLDER } from './redirect-file';

/**
 * How `dubdesk serve --link`, in another process, finds the `serve` running on a data folder and asks it
 * for a new one-time address: each `serve` writes `serve/serve-<pid>.json` in the data folder (mode 0600
 * in a 0700 folder, like the queue database and the key file beside it) holding its address and its
 * session token, and deletes it when it stops. Whoever can read that file is the user who started
 * `serve` (or root); nothing is ever listening for a second process without that secret. A file is the
 * one way that works alike on Linux, macOS and Windows (a Unix socket would not), and needs no second
 * port.
 */
const RunningSchema = z.object({
  pid: z.number().int().positive(),
  origin: z.string().regex(/^http:\/\/127\.0\.0\.1:\d{1,5}$/),
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  startedAt: z.number(),
});
export type RunningServer = z.infer<typeof RunningSchema> & { file: string };

const folderOf = (home: string) => join(home, REDIRECT_FOLDER);
const FILE = /^serve-\d+\.json$/;

/** Says where this server is, for `--link`; the returned function takes it back (serve stops). */
export async function announceServer(
  home: string,
  server: { origin: string; token: string },
): Promise<() => Promise<void>> {
  const dir = folderOf(home);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = join(dir, `serve-${process.pid}.json`);
  const running = RunningSchema.parse({
    pid: process.pid,
    origin: server.origin,
    token: server.token,
    startedAt: Date.now(),
  });
  await writeFile(file, `${JSON.stringify(running)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return () => rm(file, { force: true });
}

/** Whether a process of that id exists (it may not be ours to signal: that still means it runs). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The servers running on `home`, newest first. A file whose process is gone (a `serve` killed outright)
 * is removed; one that does not read as ours is skipped.
 */
export async function runningServers(home: string): Promise<RunningServer[]> {
  const dir = folderOf(home);
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: RunningServer[] = [];
  for (const name of names.filter((n) => FILE.test(n))) {
    const file = join(dir, name);
    let parsed: z.infer<typeof RunningSchema>;
    try {
      parsed = RunningSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    } catch {
      continue;
    }
    if (alive(parsed.pid)) found.push({ ...parsed, file });
    else await rm(file, { force: true });
  }
  return found.sort((a, b) => b.startedAt - a.startedAt);
}
