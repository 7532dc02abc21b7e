/**
 * A setup file that measures what each test file costs in CPU, when DUBDESK_CPU_REPORT names a file to append
 * to (docs/testing.md says how): the test process, every child it has waited for (a Chromium closed, a CLI run),
 * and the descendants still running at the end (a Chromium not waited for, esbuild's service), from the test
 * process's start (each file has a process of its own): one line a file, its path, CPU seconds, wall seconds
 * from the setup file's start, and the process id.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const TICKS_PER_SECOND = 100;

interface ProcessCpu {
  parent: number;
  /** Its own ticks, and those of the children it has waited for. */
  ticks: number;
}

function processCpu(pid: number | string): ProcessCpu | null {
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

/** This process's ticks, its waited children's, and its running descendants'. */
function treeTicks(): number {
  const all = new Map<number, ProcessCpu>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cpu = processCpu(name);
    if (cpu) all.set(Number(name), cpu);
  }
  const inTree = new Set([process.pid]);
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

const report = process.env.DUBDESK_CPU_REPORT;
if (report) {
  const startWall = performance.now();
  let file = '';
  // Vitest reads a hook's first parameter as the fixtures it asks for, and takes only a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(({}, suite) => {
    file = relative(process.cwd(), suite.file.filepath);
  });
  afterAll(() => {
    const cpu = treeTicks() / TICKS_PER_SECOND;
    const wall = (performance.now() - startWall) / 1000;
    appendFileSync(report, `${file}\t${cpu.toFixed(2)}\t${wall.toFixed(1)}\t${process.pid}\n`);
  });
}
