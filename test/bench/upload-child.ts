/**
 * One upload by the engine, in a process that runs nothing else: the whole engine (add, then run) sends
 * one file to the bench sandbox. Prints `{ uploadMs, maxRssBytes }`: the time from the job's `uploading` to
 * the service's answer, and the process's peak resident memory (`getrusage`), whatever moment it was reached.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDubdesk } from '../../electron/engine/index';

const { baseUrl, apiKey, file, api } = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  apiKey: string;
  file: string;
  api: 'v2' | 'v1';
};
const home = mkdtempSync(join(tmpdir(), 'dubdesk-bench-upload-'));
const host = openDubdesk({ home, face: 'cli', service: { baseUrl, apiKey } });
const stop = new AbortController();
let started = 0;
let uploadMs = 0;
host.api.subscribe((e) => {
  if (e.type !== 'job') return;
  if (e.job.state === 'uploading' && !started) started = performance.now();
  if ((e.job.state === 'submitted' || e.job.state === 'processing') && started && !uploadMs) {
    uploadMs = performance.now() - started;
    stop.abort();
  }
  if (e.job.state === 'failed') {
    process.stderr.write(`upload failed: ${e.job.error?.message}\n`);
    stop.abort();
  }
});
await host.api.add({ inputs: [file], to: ['es'], api, uploadOnce: false, outDir: home, force: true });
await host.run({ untilDone: false, concurrency: 1, pollIntervalMs: 60_000, signal: stop.signal });
await host.close();
rmSync(home, { recursive: true, force: true });
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ uploadMs, maxRssBytes: usage.maxRSS * 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 })}\n`,
);
