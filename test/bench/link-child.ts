/**
 * One batch over the shaped link, in a process that runs nothing else: the whole engine (add, then run until
 * done) dubs the files into the languages, v2, each file uploaded once. Prints, in ms from the add:
 * `firstMs` and `lastMs` (the first and the last result saved), `uploadsDoneMs` (the last file's bytes
 * answered), and each job's moments by state, for the section's breakdown of where the time went.
 */
import { subscribe } from 'node:diagnostics_channel';
import { basename } from 'node:path';
import { openDubdesk } from '../../electron/engine/index';
import { loopTurns } from '../../electron/engine/runner/idle';

const { baseUrl, apiKey, home, outDir, files, to, concurrency, pollMs } = JSON.parse(
  process.argv[2] ?? '{}',
) as {
  baseUrl: string;
  apiKey: string;
  home: string;
  outDir: string;
  files: string[];
  to: string[];
  concurrency: number;
  pollMs: number;
};

export interface LinkChildResult {
  firstMs: number;
  firstName: string;
  lastMs: number;
  /** The add's answer (every file probed, every job queued). */
  addedMs: number;
  /** The estimate before it, not counted (the add dialog's, while the user picks languages). */
  estimateMs: number;
  uploadsDoneMs: number;
  /** Each request that carried a file: its start and its answer. */
  sends: [number, number][];
  /** Turns of the runner's loop, and the process's CPU time. */
  runnerTurns: number;
  cpuMs: number;
  /** Source names in the order their first job began to upload. */
  uploadOrder: string[];
  /** By job: source, language and the first moment of each state it went through. */
  jobs: { name: string; lang: string; at: Record<string, number> }[];
}

// The engine's transport says when each request carrying a file starts and when it is answered.
const sends = new Map<number, [number, number]>();
subscribe('dubdesk:file-request', (message) => {
  const { id, phase } = message as { id: number; phase: 'start' | 'answer' };
  const now = performance.now() - t0;
  if (phase === 'start') sends.set(id, [now, NaN]);
  else {
    const s = sends.get(id);
    if (s) s[1] = now;
  }
});

const host = openDubdesk({ home, face: 'cli', service: { baseUrl, apiKey } });
const jobs = new Map<number, LinkChildResult['jobs'][number]>();
const uploadOrder: string[] = [];
let t0 = 0;
let firstMs = 0;
let firstName = '';
let lastMs = 0;
host.api.subscribe((e) => {
  if (e.type !== 'job' || !t0) return;
  const now = performance.now() - t0;
  const { id, sourceName, destLang, state } = e.job;
  let job = jobs.get(id);
  if (!job) jobs.set(id, (job = { name: sourceName, lang: destLang, at: {} }));
  job.at[state] ??= now;
  if (state === 'uploading' && !uploadOrder.includes(sourceName)) uploadOrder.push(sourceName);
  if (state === 'completed') {
    if (!firstMs) [firstMs, firstName] = [now, sourceName];
    lastMs = now;
  }
  if (state === 'failed') process.stderr.write(`link: ${sourceName} failed: ${e.job.error?.message}\n`);
});
// As in the add dialog: the estimate (each file read and hashed once) is shown before the user starts.
const e0 = performance.now();
await host.api.estimate({ inputs: files, to, api: 'v2', uploadOnce: true, send: 'file' });
const estimateMs = performance.now() - e0;
t0 = performance.now();
// The link carries the files (the sound alone, the default for a video, would leave it nearly idle).
await host.api.add({ inputs: files, to, api: 'v2', uploadOnce: true, send: 'file', outDir, force: true });
const addedMs = performance.now() - t0;
const outcome = await host.run({ untilDone: true, concurrency, pollIntervalMs: pollMs });
await host.close();
const all = [...jobs.values()];
if (
  outcome !== 'done' ||
  all.filter((j) => j.at.completed !== undefined).length !== files.length * to.length
) {
  process.stderr.write(`link: the batch ended ${outcome}, not every job completed\n`);
  process.exit(1);
}
// The carriers' uploads: the first job of each file to be answered by the service after uploading.
const names = new Set(files.map((f) => basename(f)));
const carried = [...names].map((n) =>
  Math.min(...all.filter((j) => j.name === n).map((j) => j.at.submitted ?? j.at.processing ?? Infinity)),
);
const result: LinkChildResult = {
  firstMs,
  firstName,
  lastMs,
  addedMs,
  estimateMs,
  uploadsDoneMs: Math.max(...carried),
  uploadOrder,
  sends: [...sends.values()],
  runnerTurns: loopTurns.runner,
  cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  jobs: all,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
