import { execFileSync, spawnSync } from 'node:child_process';

export interface Tool {
  pid: number;
  args: string;
}

/** The ffmpegs running now whose command line names a path under `dir`, as `ps` lists them. */
export function ffmpegsUnder(dir: string): Tool[] {
  const listed = execFileSync('ps', ['-ww', '-eo', 'pid=,args='], { encoding: 'utf8' });
  return listed.split('\n').flatMap((line) => {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m?.[2] || !/ffmpeg/.test(m[2]) || !m[2].includes(dir)) return [];
    return [{ pid: Number(m[1]), args: m[2] }];
  });
}

/** Whether `pid` still runs: a process over but not yet reaped by whoever adopted it (a zombie) does not. */
export const alive = (pid: number): boolean => {
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
  const stat = ps.stdout.trim();
  return stat !== '' && !stat.startsWith('Z');
};

/** The parent of `pid`, as `ps` says (0 when it is gone). */
export const parentOf = (pid: number): number =>
  Number(spawnSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim() || 0);
