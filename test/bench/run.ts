/**
 * `npm run bench`: every figure of issue 11 (and later ones: link, wire) beside its reference, measured in this run (medians of
 * alternating runs where timing is involved), printed as one table and written to `bench-results.json`.
 * Timings live here, never in tests. Everything runs on loopback; every sandbox runs in its own process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesFigures } from './bytes';
import { enqueueFigures } from './enqueue';
import { idleFigures } from './idle';
import { linkFigures } from './link';
import { printTable, writeResults, type Figure } from './figures';
import { overheadFigures } from './overhead';
import { pollingFigures } from './polling';
import { probeFigures } from './probe';
import { qcFigures } from './qc';
import { scaleFigures } from './scale';
import { uiFigures } from './ui';
import { uploadFigures } from './upload';
import { wireFigures } from './wire';

const work = mkdtempSync(join(tmpdir(), 'dubdesk-bench-'));
const sections: [string, () => Promise<Figure[]>][] = [
  ['upload', () => uploadFigures(work)],
  ['enqueue', () => enqueueFigures(work)],
  ['polling', () => pollingFigures(work)],
  ['overhead', () => overheadFigures()],
  ['probing', () => probeFigures(work)],
  ['bytes', () => bytesFigures(work)],
  ['ui', () => uiFigures(work)],
  ['scale', () => scaleFigures(work)],
  ['idle', () => idleFigures(work)],
  ['link', () => linkFigures(work)],
  ['qc', () => qcFigures(work)],
  ['wire', () => wireFigures(work)],
];
const only = process.argv.slice(2);
const figures: Figure[] = [];
/** Wall time per section: the whole bench must fit 5 minutes on a 2-core machine. */
const took: string[] = [];
const t0 = performance.now();
for (const [name, section] of sections) {
  if (only.length && !only.includes(name)) continue;
  const s0 = performance.now();
  try {
    figures.push(...(await section()));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    figures.push({
      name,
      measured: null,
      unit: '',
      target: '',
      reference: `failed: ${why}`,
      ratio: null,
      pass: false,
    });
  }
  const s = ((performance.now() - s0) / 1000).toFixed(0);
  took.push(`${name} ${s} s`);
  process.stderr.write(`bench: ${name} done in ${s} s\n`);
}
rmSync(work, { recursive: true, force: true });
console.log(printTable(figures));
console.log(
  `\n${((performance.now() - t0) / 1000).toFixed(0)} s (${took.join(', ')}); load average ${(
    await import('node:os')
  )
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${(await import('node:os')).availableParallelism()} cores`,
);
writeResults('bench-results.json', figures);
process.exitCode = figures.every((f) => f.pass !== false) ? 0 : 1;
