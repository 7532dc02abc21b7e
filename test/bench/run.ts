/**
 * `npm run bench`: speed and memory figures against their targets, printed as a table.
 * Timings live here, never in tests. Everything runs on loopback against the sandbox.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, openSync, closeSync, ftruncateSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { V2Client } from '../../electron/engine/api/v2';
import { JobStore, type NewJob } from '../../electron/engine/db/jobs';
import { openDatabase } from '../../electron/engine/db/open';
import { openDubdesk } from '../../electron/engine/index';
import { enqueue, transition } from '../../electron/engine/jobs/life';
import { probeFile } from '../../electron/engine/media/probe';
import { audioMp3, videoMp4 } from '../helpers/media';
import { CLI } from '../helpers/cli';

interface Row {
  metric: string;
  measured: string;
  target: string;
  ok: boolean;
}
const rows: Row[] = [];
const dir = mkdtempSync(join(tmpdir(), 'dubdesk-bench-'));
const mb = (n: number) => n / 1024 / 1024;

async function probeSpeed(): Promise<void> {
  const files: string[] = [];
  const sources = [videoMp4(3), audioMp3(2.5)];
  for (let i = 0; i < 400; i++) {
    const p = join(dir, `p${i}${i % 2 ? '.mp3' : '.mp4'}`);
    copyFileSync(sources[i % 2] ?? '', p);
    files.push(p);
  }
  const t0 = performance.now();
  for (const f of files) await probeFile(f);
  const perSecond = files.length / ((performance.now() - t0) / 1000);
  rows.push({
    metric: 'probe (type + duration), files/s',
    measured: perSecond.toFixed(0),
    target: '>= 200',
    ok: perSecond >= 200,
  });
}

async function queueSpeed(): Promise<void> {
  const store = new JobStore(openDatabase(join(dir, 'dubdesk.db')));
  const jobs: NewJob[] = Array.from({ length: 10_000 }, (_, i) => ({
    source: `/videos/v${i}.mp4`,
    source_kind: 'file',
    source_name: `v${i}.mp4`,
    source_type: 'video/mp4',
    source_bytes: 1,
    source_mtime: 1,
    duration: 60,
    dest_lang: 'es',
    source_lang: 'auto',
    api: 'v2',
    studio: 0,
    out_dir: '/out',
    outputs_wanted: '"default"',
    naming: 'suffix',
    service: 'http://127.0.0.1:9',
    watch_folder_id: null,
    upload_once: 0,
  }));
  let t0 = performance.now();
  store.db.transaction(() => {
    for (const j of jobs) enqueue(store, j, null);
  })();
  const addMs = performance.now() - t0;
  rows.push({
    metric: 'add 10,000 jobs (one transaction), ms',
    measured: addMs.toFixed(0),
    target: '<= 2000',
    ok: addMs <= 2000,
  });
  t0 = performance.now();
  let claimed = 0;
  for (let i = 0; i < 100; i++) {
    for (const { row, token } of store.claim('submit', 10, 'http://127.0.0.1:9')) {
      transition(store, row.id, { token }, { type: 'begin-upload' });
      transition(store, row.id, { token }, { type: 'created', remoteId: `r${row.id}`, status: 2 });
      store.release(row.id, token);
      claimed++;
    }
  }
  const claimPerSec = claimed / ((performance.now() - t0) / 1000);
  rows.push({
    metric: 'claim + record + release, jobs/s',
    measured: claimPerSec.toFixed(0),
    target: '>= 2000',
    ok: claimPerSec >= 2000,
  });
  store.db.close();
  const host = openDubdesk({
    home: dir,
    face: 'cli',
    service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'x' },
  });
  t0 = performance.now();
  const page = await host.api.listSources({ limit: 100 });
  const listMs = performance.now() - t0;
  await host.close();
  rows.push({
    metric: `first page of ${page.total} sources as views, ms`,
    measured: listMs.toFixed(0),
    target: '<= 300',
    ok: listMs <= 300,
  });
}

/** The sandbox in its own process, so the figures below are the client's alone. */
async function withSandbox<T>(fn: (baseUrl: string) => Promise<T>): Promise<T> {
  const child = spawn(
    process.execPath,
    [CLI, 'sandbox', '--port', '0', '--pipeline-seconds', '600', '--max-upload-bytes', String(2 * 1024 ** 3)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        const m = /base URL (\S+)/.exec(d.toString());
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error('sandbox exited')));
    });
    return await fn(baseUrl);
  } finally {
    child.kill('SIGTERM');
  }
}

async function uploadMemory(): Promise<void> {
  const size = 512 * 1024 ** 2;
  const big = join(dir, 'big.mp4');
  copyFileSync(videoMp4(3), big);
  const fd = openSync(big, 'r+');
  ftruncateSync(fd, size);
  closeSync(fd);
  await withSandbox(async (baseUrl) => {
    const client = new V2Client(baseUrl, 'sandbox-key');
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    await client.createFromFile(big, 'video/mp4', {
      dest_lang: 'es',
      source_lang: 'auto',
      name: 'big.mp4',
      is_studio_quality: false,
    });
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const growth = mb(peak - before);
    rows.push({
      metric: 'v2 multipart upload of 512 MB: client RSS growth, MB',
      measured: growth.toFixed(1),
      target: '<= 64 (flat, not the file size)',
      ok: growth <= 64,
    });
    rows.push({
      metric: 'v2 multipart upload over loopback, MB/s',
      measured: (mb(size) / seconds).toFixed(0),
      target: '>= 50',
      ok: mb(size) / seconds >= 50,
    });
  });
}

async function main(): Promise<void> {
  await probeSpeed();
  await queueSpeed();
  await uploadMemory();
  rmSync(dir, { recursive: true, force: true });
  const header: Row = { metric: 'metric', measured: 'measured', target: 'target', ok: true };
  const w = [
    Math.max(...[header, ...rows].map((r) => r.metric.length)),
    Math.max(...[header, ...rows].map((r) => r.measured.length)),
    Math.max(...[header, ...rows].map((r) => r.target.length)),
  ];
  const line = (r: Row, ok: string) =>
    `| ${r.metric.padEnd(w[0] ?? 0)} | ${r.measured.padStart(w[1] ?? 0)} | ${r.target.padEnd(w[2] ?? 0)} | ${ok} |`;
  console.log(line(header, 'ok'));
  console.log(
    `|${'-'.repeat((w[0] ?? 0) + 2)}|${'-'.repeat((w[1] ?? 0) + 2)}|${'-'.repeat((w[2] ?? 0) + 2)}|----|`,
  );
  for (const r of rows) console.log(line(r, r.ok ? 'yes' : 'NO'));
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}

await main();
