import { copyFileSync, mkdirSync, mkdtempSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { videoMp4 } from '../helpers/media';
import { runChild } from './child';
import { API_KEY, benchSandbox } from './sandbox';
const MiB = 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'prof-'));
const big = (b: number) => { const p = join(work, `b${b}.mp4`); copyFileSync(videoMp4(3), p); truncateSync(p, b); return p; };
const dataDir = `/dev/shm/prof-${process.pid}`; mkdirSync(dataDir, { recursive: true });
const sb = await benchSandbox({ pipelineSeconds: 100_000, dataDir, balance: 1e9, ffmpeg: false });
const gib = big(1024 * MiB), warm = big(2 * MiB);
for (const api of ['v2', 'v1'] as const) {
  const r = await runChild('./upload-child.ts', { baseUrl: sb.baseUrl, apiKey: API_KEY, file: gib, warmFile: warm, api },
    process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []);
  console.log(api, JSON.stringify(r));
}
await sb.stop();
