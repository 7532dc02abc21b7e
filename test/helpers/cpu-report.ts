/**
 * A setup file that measures what each test file costs in CPU, when DUBDESK_CPU_REPORT names a file to append
 * to (CONTRIBUTING.md): the test process since its start or its last file, every child it waited for (a CLI
 * run), its descendants still running at the end, and the browsers it closed (test/helpers/cpu-tree.ts). One
 * line a file: its path, CPU seconds, wall seconds from the setup file's start, and the process id.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { CPU_REPORT, cpuSecondsSinceLast } from './cpu-tree';

if (CPU_REPORT) {
  const report = CPU_REPORT;
  const startWall = performance.now();
  let file = '';
  // Vitest reads a hook's first parameter as the fixtures it asks for, and takes only a destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(({}, suite) => {
    file = relative(process.cwd(), suite.file.filepath);
  });
  afterAll(() => {
    const wall = (performance.now() - startWall) / 1000;
    appendFileSync(
      report,
      `${file}\t${cpuSecondsSinceLast().toFixed(2)}\t${wall.toFixed(1)}\t${process.pid}\n`,
    );
  });
}
