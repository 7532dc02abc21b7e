import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface Tool {
  pid: number;
  args: string;
}

/**
 * The process table `ps` shows, read where `ps` reads it on Linux (/proc): the tests poll it every 10 to 20 ms
 * while they wait for an ffmpeg, and a `ps` spawned each time took half a core from the run. Elsewhere, `ps`.
 */
const PROC = existsSync('/proc/self/stat') ? '/proc' : null;

/** A process's command line as `ps -o args` prints it, '' when it is gone or has none (a kernel thread). */
const argsOf = (pid: string): string => {
  try {
    return readFileSync(`${PROC}/${pid}/cmdline`, 'utf8').replace(/\0$/, '').replaceAll('\0', ' ');
  } catch {
    return ''; // gone meanwhile
  }
};

/** A process's state letter and parent from /proc/PID/stat, null when it is gone. */
const statOf = (pid: number): { state: string; parent: number } | null => {
  try {
    const stat = readFileSync(`${PROC}/${pid}/stat`, 'utf8');
    // After "pid (comm) ": the state, then the parent's pid.
    const [state = '', parent = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, parent: Number(parent) };
  } catch {
    return null;
  }
};

/** Every running process's pid and command line. */
function processes(): Tool[] {
  if (PROC)
    return readdirSync(PROC)
      .filter((name) => /^\d+$/.test(name))
      .map((name) => ({ pid: Number(name), args: argsOf(name) }));
  const listed = execFileSync('ps', ['-ww', '-eo', 'pid=,args='], { encoding: 'utf8' });
  return listed.split('\n').flatMap((line) => {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    return m?.[2] ? [{ pid: Number(m[1]), args: m[2] }] : [];
  });
}

/** The ffmpegs running now whose command line names a path under `dir`. */
export const ffmpegsUnder = (dir: string): Tool[] =>
  processes().filter((p) => /ffmpeg/.test(p.args) && p.args.includes(dir));

/** Whether `pid` still runs: a process over but not yet reaped by whoever adopted it (a zombie) does not. */
export const alive = (pid: number): boolean => {
  if (PROC) {
    const state = statOf(pid)?.state;
    return state !== undefined && state !== 'Z';
  }
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  const stat = ps.stdout.trim();
  return stat !== '' && !stat.startsWith('Z');
};

/** The parent of `pid` (0 when it is gone). */
export const parentOf = (pid: number): number =>
  PROC
    ? (statOf(pid)?.parent ?? 0)
    : Number(spawnSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim() || 0);
