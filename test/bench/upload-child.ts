/**
 * Uploads by the engine, in a process that runs nothing else: the whole engine (add, then run, one job at a
 * time) sends a small warm-up file, then each of `files`, to the bench sandbox. Prints one line of JSON:
 * `{ jobs: [{ uploadMs, uploadCpuMs, jobCpuMs }], rssBytes }`, one entry per file of `files`:
 * - `uploadMs` and `uploadCpuMs`: the request that carries the file (v2 create, or the pre-signed PUT), from
 *   its start to its status line, as curl's `time_total` counts its one request; its CPU is the process's
 *   (the file's reads in libuv's pool included), as `time` counts curl's. With `--expose-gc`, the garbage
 *   the request left is collected at its status line and counted in it: the collection would otherwise land
 *   in whatever the engine does next and be counted as that;
 * - `jobCpuMs`: the process's CPU from the job's `uploading` to the service's answer, with the init and
 *   start calls of v1 around the PUT and the engine's own records: less `uploadCpuMs`, the engine's overhead;
 * - `rssBytes`: the process's peak resident memory (`getrusage`: this process alone, not the sandbox) once
 *   every one of `files` is sent and its dub created.
 */
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { openDubdesk } from '../../electron/engine/index';

const { baseUrl, apiKey, files, warmFile, api } = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  apiKey: string;
  /** The files measured, sent in this order; distinct content, so none is a copy of another. */
  files: string[];
  /** A small file dubbed first, so no job measured is the process's first (cold) one. */
  warmFile: string;
  api: 'v2' | 'v1';
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const collect = (globalThis as { gc?: () => void }).gc;

interface JobRun {
  uploadMs: number;
  uploadCpuMs: number;
  jobCpuMs: number;
}
const measured = new Set(files.map((f) => basename(f)));
const runs: JobRun[] = [];
/** The job being sent (one at a time), from its `uploading` on. */
let current: { id: number; cpu: number; requestAt: number; requestCpu: number; run: JobRun } | null = null;
let rssBytes = 0;

// The engine's transport says when the one request carrying a file starts and when it is answered.
subscribe('dubdesk:file-request', (message) => {
  const { phase } = message as { phase: 'start' | 'answer' };
  if (!current) return;
  if (phase === 'start' && !current.requestAt) {
    current.requestAt = performance.now();
    current.requestCpu = cpuMs();
  }
  if (phase === 'answer' && current.requestAt && !current.run.uploadMs) {
    current.run.uploadMs = performance.now() - current.requestAt;
    collect?.();
    current.run.uploadCpuMs = cpuMs() - current.requestCpu;
  }
});

const home = mkdtempSync(join(tmpdir(), 'dubdesk-bench-upload-'));
const host = openDubdesk({ home, face: 'cli', service: { baseUrl, apiKey } });
const stop = new AbortController();
host.api.subscribe((e) => {
  if (e.type !== 'job' || !measured.has(e.job.sourceName)) return;
  if (e.job.state === 'uploading' && !current) {
    const run = { uploadMs: 0, uploadCpuMs: 0, jobCpuMs: 0 };
    current = { id: e.job.id, cpu: cpuMs(), requestAt: 0, requestCpu: 0, run };
  }
  if ((e.job.state === 'submitted' || e.job.state === 'processing') && current?.id === e.job.id) {
    current.run.jobCpuMs = cpuMs() - current.cpu;
    runs.push(current.run);
    current = null;
    if (runs.length === files.length) {
      rssBytes = process.resourceUsage().maxRSS * 1024;
      stop.abort();
    }
  }
  if (e.job.state === 'failed') {
    process.stderr.write(`upload failed: ${e.job.error?.message}\n`);
    stop.abort();
  }
});
// One add, the warm-up first: the queue takes them one at a time, smallest first.
await host.api.add({
  inputs: [warmFile, ...files],
  to: ['es'],
  api,
  uploadOnce: false,
  // The figures are about sending files: the sound alone would send a few kilobytes of each.
  send: 'file',
  outDir: home,
  force: true,
});
await host.run({ untilDone: false, concurrency: 1, pollIntervalMs: 60_000, signal: stop.signal });
await host.close();
rmSync(home, { recursive: true, force: true });
if (runs.length !== files.length || runs.some((r) => !r.uploadMs)) {
  process.stderr.write(`${runs.length} of ${files.length} uploads seen, each with its request\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify({ jobs: runs, rssBytes })}\n`);
