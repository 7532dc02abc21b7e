/**
 * A setup file that measures what each test file costs in CPU, when DUBDESK_CPU_REPORT names a file to append
 * to (CONTRIBUTING.md): the test process since its start or its last file, every child it waited for (a CLI
 * run), its descendants still running at the end, and the browsers it closed (test/helpers/cpu-tree.ts). One
 * line a file: its path, CPU seconds, wall seconds from the setup file's start, the process id, and the clock
 * times (UTC) its tests began and ended: the run's timeline, where a worker waited and where one file ran alone.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { CPU_REPORT, cpuSecondsSinceLast } from './cpu-tree';

/** A moment as the run's logs and `uptime` say it: `01:02:44.5`, UTC. */
const clock = (at: Date): string => at.toISOString().slice(11, 21);

if (CPU_REPORT) {
  const report = CPU_REPORT;
  const startWall = performance.now();
  let file = '';
  let began = new Date();
  // Vitest reads a hook's first parameter as the fixtures it asks for, and takes only a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(({}, suite) => {
    file = relative(process.cwd(), suite.file.filepath);
    began = new Date();
  });
  afterAll(() => {
    const wall = (performance.now() - startWall) / 1000;
    appendFileSync(
      report,
      `${file}\t${cpuSecondsSinceLast().toFixed(2)}\t${wall.toFixed(1)}\t${process.pid}\t${clock(began)}\t${clock(new Date())}\n`,
    );
  });
}
