/**
 * 300 jobs through the bench sandbox (its own process, a near-zero pipeline) by an engine alone in this
 * process; prints the CPU time this process spent, from add to the last download.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDubdesk } from '../../electron/engine/index';

const { baseUrl, apiKey, source, jobs } = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  apiKey: string;
  source: string;
  jobs: number;
};
const work = mkdtempSync(join(tmpdir(), 'dubdesk-bench-overhead-'));
const media = join(work, 'media');
mkdirSync(media);
for (let i = 0; i < jobs; i++) copyFileSync(source, join(media, `o-${i}.mp3`));
const host = openDubdesk({ home: join(work, 'home'), face: 'cli', service: { baseUrl, apiKey } });
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const added = await host.api.add({ inputs: [media], to: ['es'], outDir: join(work, 'out'), force: true });
const outcome = await host.run({ untilDone: true, concurrency: 4, pollIntervalMs: 500 });
const cpu = process.cpuUsage(cpu0);
const wallMs = performance.now() - t0;
const done = (await host.api.totals()).counts.completed;
await host.close();
if (outcome !== 'done' || done !== added.added.length) throw new Error(`${outcome}: ${done} completed`);
process.stdout.write(
  `${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, userMs: cpu.user / 1000, wallMs, jobs: done })}\n`,
);
