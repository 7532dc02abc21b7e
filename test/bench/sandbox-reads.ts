/**
 * `node --import tsx test/bench/sandbox-reads.ts`: what a 100-dub v2 list page costs the sandbox, and how
 * /me answers while a burst of 200 creates is being worked on. Figures for sandbox.md, never assertions.
 */
import { startSandbox } from '../../electron/sandbox/server';
import { formWithFile } from '../helpers/http';
import { audioMp3, videoMp4 } from '../helpers/media';

const auth = { apikey: 'sandbox-key' };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const sb = await startSandbox({ pipelineSeconds: 0.2, balance: 1e9 });
const post = async (form: FormData) =>
  (await fetch(`${sb.baseUrl}/api/v2/dubs`, { method: 'POST', headers: auth, body: form })).text();

for (let i = 0; i < 100; i++) await post(await formWithFile(videoMp4(), { dest_lang: 'es' }));
for (;;) {
  const page = (await (await fetch(`${sb.baseUrl}/api/v2/dubs?page_size=100`, { headers: auth })).json()) as {
    dubs: { external_status_id: number }[];
  };
  if (page.dubs.every((d) => d.external_status_id === 5)) break;
  await new Promise((r) => setTimeout(r, 200));
}
const pageMs: number[] = [];
let bytes = 0;
for (let i = 0; i < 50; i++) {
  const t0 = performance.now();
  bytes = Buffer.byteLength(
    await (await fetch(`${sb.baseUrl}/api/v2/dubs?page_size=100`, { headers: auth })).text(),
  );
  pageMs.push(performance.now() - t0);
}
console.log(
  `100-dub page: ${(bytes / 1024).toFixed(0)} KiB, median ${median(pageMs).toFixed(1)} ms over 50 reads`,
);

const audio = await formWithFile(audioMp3(), { dest_lang: 'es' }, 'audio/mpeg');
await Promise.all(Array.from({ length: 200 }, () => post(audio)));
const meMs: number[] = [];
const until = performance.now() + 5000;
while (performance.now() < until) {
  const t0 = performance.now();
  await (await fetch(`${sb.baseUrl}/api/v2/me`, { headers: auth })).text();
  meMs.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 50));
}
console.log(
  `/me during the media work of 200 creates: median ${median(meMs).toFixed(1)} ms, max ${Math.max(...meMs).toFixed(1)} ms; ` +
    `media processes at once: at most ${sb.media.peak} (pool of ${sb.media.size})`,
);
await sb.stop();
