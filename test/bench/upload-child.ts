/**
 * One upload by the engine, in a process that runs nothing else: the whole engine (add, then run) sends
 * one file to the bench sandbox. Prints `{ uploadMs, uploadCpuMs, jobCpuMs, maxRssBytes }`:
 * - `uploadMs` and `uploadCpuMs`: the request that carries the file (v2 create, or the pre-signed PUT), from
 *   its start to its status line, as curl's `time_total` counts its one request; its CPU is the process's
 *   (the file's reads in libuv's pool included), as `time` counts curl's;
 * - `jobCpuMs`: the process's CPU from the job's `uploading` to the service's answer, with the init and
 *   start calls of v1 around the PUT and the engine's own records: less `uploadCpuMs`, the engine's overhead;
 * - all of it for the second job of the process (a small file goes first), as in a batch;
 * - the process's peak resident memory (`getrusage`), whatever moment it was reached.
 */
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { openDubdesk } from '../../electron/engine/index';

const { baseUrl, apiKey, file, warmFile, api } = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  apiKey: string;
  file: string;
  /** A small file dubbed first, so the job measured is one of a batch, not the process's first (cold) one. */
  warmFile: string;
  api: 'v2' | 'v1';
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// The engine's transport says when the one request carrying a file starts and when it is answered.
let requestStarted = 0;
let requestCpu = 0;
let uploadMs = 0;
let uploadCpuMs = 0;
let measuring = false;
subscribe('dubdesk:file-request', (message) => {
  const { phase } = message as { phase: 'start' | 'answer' };
  if (!measuring) return;
  if (phase === 'start' && !requestStarted) {
    requestStarted = performance.now();
    requestCpu = cpuMs();
  }
  if (phase === 'answer' && requestStarted && !uploadMs) {
    uploadMs = performance.now() - requestStarted;
    uploadCpuMs = cpuMs() - requestCpu;
  }
});

const home = mkdtempSync(join(tmpdir(), 'dubdesk-bench-upload-'));
const host = openDubdesk({ home, face: 'cli', service: { baseUrl, apiKey } });
const stop = new AbortController();
let jobCpu = 0;
let jobCpuMs = 0;
host.api.subscribe((e) => {
  if (e.type !== 'job' || e.job.sourceName !== basename(file)) return;
  if (e.job.state === 'uploading' && !jobCpu) {
    measuring = true;
    jobCpu = cpuMs();
  }
  if ((e.job.state === 'submitted' || e.job.state === 'processing') && jobCpu && !jobCpuMs) {
    jobCpuMs = cpuMs() - jobCpu;
    stop.abort();
  }
  if (e.job.state === 'failed') {
    process.stderr.write(`upload failed: ${e.job.error?.message}\n`);
    stop.abort();
  }
});
// One add, the warm-up first: the queue takes them in order, one at a time.
await host.api.add({
  inputs: [warmFile, file],
  to: ['es'],
  api,
  uploadOnce: false,
  outDir: home,
  force: true,
});
await host.run({ untilDone: false, concurrency: 1, pollIntervalMs: 60_000, signal: stop.signal });
await host.close();
rmSync(home, { recursive: true, force: true });
if (!uploadMs || !jobCpuMs) {
  process.stderr.write(`the upload request was not seen (${uploadMs} ms, job ${jobCpuMs} ms of CPU)\n`);
  process.exit(1);
}
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ uploadMs, uploadCpuMs, jobCpuMs, maxRssBytes: usage.maxRSS * 1024 })}\n`,
);
