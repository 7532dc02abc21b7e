import { readFile } from 'node:fs/promises';

/**
 * When process `pid` started, as the system tells it (null: no such process, or a system that does not
 * say; a process that is over and not yet reaped has none). With its pid it names one process: a pid the system gave to another since has another start.
 */
export async function processStart(pid: number): Promise<string | null> {
  if (process.platform === 'linux') {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    // The fields after the command's name, which may hold spaces and brackets: the 22nd is the start time.
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields?.[0] === 'Z') return null; // over, only not yet reaped
    return fields?.[19] ?? null;
  }
  if (process.platform === 'win32') return null;
  const { execa } = await import('execa');
  const ps = await execa('ps', ['-o', 'lstart=', '-p', String(pid)], { reject: false });
  return ps.exitCode === 0 && ps.stdout.trim() ? ps.stdout.trim() : null;
}

/**
 * The processes whose command line holds `text` (a part's name of its own, which nothing else names), from
 * `ps`; none where there is no `ps` (Windows).
 */
export async function processesNaming(text: string): Promise<number[]> {
  if (process.platform === 'win32') return [];
  const { execa } = await import('execa');
  const ps = await execa('ps', ['-ww', '-eo', 'pid=,args='], { reject: false });
  if (ps.exitCode !== 0) return [];
  return ps.stdout.split('\n').flatMap((line) => {
    const m = /^\s*(\d+)\s(.*)$/.exec(line);
    return m?.[2]?.includes(text) ? [Number(m[1])] : [];
  });
}
