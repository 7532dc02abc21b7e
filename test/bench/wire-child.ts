/**
 * One batch through the whole engine in a process of its own, sending the sound alone or the whole file:
 * every byte its sockets carried (requests, answers, uploads and downloads, headers included) and the time
 * from the add to the last result saved.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { openDubdesk } from '../../electron/engine/index';

const { baseUrl, apiKey, home, outDir, files, to, send, concurrency, pollMs } = JSON.parse(
  process.argv[2] ?? '{}',
) as {
  baseUrl: string;
  apiKey: string;
  home: string;
  outDir: string;
  files: string[];
  to: string[];
  send: 'audio' | 'file';
  concurrency: number;
  pollMs: number;
};

export interface WireChildResult {
  bytes: number;
  makespanMs: number;
  dubs: number;
}

const sockets = new Set<Socket>();
subscribe('net.client.socket', (message) => sockets.add((message as { socket: Socket }).socket));

const host = openDubdesk({ home, face: 'cli', service: { baseUrl, apiKey } });
// What the add dialog shows first (each file read and hashed once), not counted in the makespan.
await host.api.estimate({ inputs: files, to, send });
const t0 = performance.now();
const added = await host.api.add({ inputs: files, to, send, outDir, force: true });
const outcome = await host.run({ untilDone: true, concurrency, pollIntervalMs: pollMs });
const makespanMs = performance.now() - t0;
const jobs = (await host.api.listJobs({ limit: 500 })).jobs;
await host.close();
const done = jobs.filter((j) => added.added.includes(j.id) && j.state === 'completed').length;
if (outcome !== 'done' || done !== files.length * to.length) {
  process.stderr.write(
    `wire: the ${send} batch ended ${outcome}, ${done} of ${files.length * to.length} done\n`,
  );
  process.exit(1);
}
const bytes = [...sockets].reduce((n, s) => n + s.bytesRead + s.bytesWritten, 0);
process.stdout.write(`${JSON.stringify({ bytes, makespanMs, dubs: done } satisfies WireChildResult)}\n`);
