/**
 * CPU time of a process tree, read from /proc (Linux), for DUBDESK_CPU_REPORT (test/helpers/cpu-report.ts).
 * A process's count holds its own time and that of the children it has waited for; a tree's adds its
 * descendants still running.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const TICKS_PER_SECOND = 100;

/** Where the figures go: a file named by DUBDESK_CPU_REPORT, or nowhere (nothing is measured). */
export const CPU_REPORT = process.env.DUBDESK_CPU_REPORT || null;

interface ProcessCpu {
  parent: number;
  /** Its own ticks, and those of the children it has waited for. */
  ticks: number;
}

function processCpu(pid: string): ProcessCpu | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state ppid … utime stime cutime cstime are fields 3, 4, 14 to 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return { parent: Number(fields[1]), ticks };
  } catch {
    return null; // gone meanwhile
  }
}

/** The ticks of `root` (this process unless told), of the children it waited for, and of its running descendants. */
export function treeTicks(root = process.pid): number {
  const all = new Map<number, ProcessCpu>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cpu = processCpu(name);
    if (cpu) all.set(Number(name), cpu);
  }
  const inTree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, cpu] of all)
      if (!inTree.has(pid) && inTree.has(cpu.parent)) {
        inTree.add(pid);
        grew = true;
      }
  }
  return [...inTree].reduce((sum, pid) => sum + (all.get(pid)?.ticks ?? 0), 0);
}

let unseen = 0;

/**
 * Runs `close` (of a browser) and keeps the CPU its processes had, which no count would show once they end:
 * Chromium's renderers are children of its zygote, and their time reaches no waiting parent.
 */
export async function closeCounted(close: () => Promise<void>): Promise<void> {
  if (!CPU_REPORT) return close();
  const before = treeTicks();
  await close();
  unseen += Math.max(0, before - treeTicks());
}

let counted = 0;

/**
 * This process's CPU seconds since the last call (since it started, at the first): its tree's, and what the
 * browsers it closed had. A worker process runs one file, or several in turn where a tier does not isolate them.
 */
export function cpuSecondsSinceLast(): number {
  const now = treeTicks() + unseen;
  const since = now - counted;
  counted = now;
  return since / TICKS_PER_SECOND;
}
