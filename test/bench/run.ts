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
/**
 * Each section with its share of the 5 minutes the whole bench must fit on a 2-core machine (seconds of
 * wall time); a section over its share is named at the end.
 */
const sections: [string, () => Promise<Figure[]>, number][] = [
  ['upload', () => uploadFigures(work), 30],
  ['enqueue', () => enqueueFigures(work), 25],
  ['polling', () => pollingFigures(work), 6],
  ['overhead', () => overheadFigures(), 45],
  ['probing', () => probeFigures(work), 5],
  ['bytes', () => bytesFigures(work), 4],
  ['ui', () => uiFigures(work), 25],
  ['scale', () => scaleFigures(work), 60],
  ['idle', () => idleFigures(work), 35],
  ['link', () => linkFigures(work), 20],
  ['qc', () => qcFigures(work), 20],
  ['wire', () => wireFigures(work), 45],
];
const only = process.argv.slice(2);
const figures: Figure[] = [];
/** Wall time per section, and the sections over their share. */
const took: string[] = [];
const over: string[] = [];
const t0 = performance.now();
for (const [name, section, budget] of sections) {
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
  const seconds = (performance.now() - s0) / 1000;
  const s = seconds.toFixed(0);
  took.push(`${name} ${s} s`);
  if (seconds > budget) over.push(`${name} (${seconds.toFixed(1)} s of its ${budget})`);
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
    .join(' ')} on ${(await import('node:os')).availableParallelism()} cores` +
    (over.length ? `; over their share of the 5 minutes: ${over.join(', ')}` : ''),
);
writeResults('bench-results.json', figures);
process.exitCode = figures.every((f) => f.pass !== false) ? 0 : 1;
