/**
 * Polling: 1,000 active v2 dubs, HTTP requests per poll cycle (vs one request per dub). Completion seen:
 * how long after a dub is due to complete on the sandbox the engine begins its download.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { storeAt } from '../helpers/store';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DubListV2 } from '../../shared/api/v2';
import { createServiceClients } from '../../electron/engine/api/clients';
import { type NewJob } from '../../electron/engine/db/jobs';
import { pollOnce } from '../../electron/engine/flows/track';
import { openDubdesk } from '../../electron/engine/index';
import { enqueue, transition } from '../../electron/engine/jobs/life';
import { audioMp3 } from '../helpers/media';
import { median, partClock, ratioOf, round, type Figure } from './figures';
import { API_KEY, benchSandbox, type BenchSandbox } from './sandbox';
import { newJob } from '../helpers/new-job';

const DUBS = 1000;

async function createDubs(sb: BenchSandbox, n: number): Promise<string[]> {
  const bytes = await readFile(audioMp3(1, 'poll.mp3'));
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const form = new FormData();
      form.set('dest_lang', 'es');
      form.set('file', new Blob([bytes], { type: 'audio/mpeg' }), 'poll.mp3');
      const r = await fetch(`${sb.baseUrl}/api/v2/dubs`, {
        method: 'POST',
        headers: { apikey: API_KEY },
        body: form,
      });
      ids.push(((await r.json()) as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return ids;
}

const trackedJob = (remote: string, service: string): NewJob =>
  newJob(`/bench/${remote}.mp3`, {
    source_name: `${remote}.mp3`,
    source_type: 'audio/mpeg',
    source_bytes: 1,
    duration: 1,
    service,
  });

const apiRequests = (r: Record<string, number>) =>
  Object.entries(r).reduce((n, [route, count]) => (route.startsWith('GET /__sandbox') ? n : n + count), 0);

async function requestsPerCycle(work: string): Promise<Figure> {
  const sb = await benchSandbox({ pipelineSeconds: 100_000, balance: 1e9, ffmpeg: false });
  try {
    const ids = await createDubs(sb, DUBS);
    const store = storeAt(join(mkdtempSync(join(work, 'poll-')), 'dubdesk.db'));
    const service = sb.baseUrl;
    store.db.transaction(() => {
      for (const remote of ids) {
        const id = enqueue(store, trackedJob(remote, service), null);
        const [claimed] = store.leases.claim('submit', 1, service);
        if (claimed?.row.id !== id) throw new Error('claim order');
        transition(store, id, { token: claimed.token }, { type: 'begin-upload' });
        transition(store, id, { token: claimed.token }, { type: 'created', remoteId: remote, status: 2 });
        store.leases.release(id, claimed.token);
      }
    })();
    const clients = createServiceClients({ baseUrl: sb.baseUrl, legacyUrl: null, apiKey: API_KEY });
    const perCycle: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = apiRequests((await sb.state()).requests);
      await pollOnce(store, clients, service, new AbortController().signal);
      perCycle.push(apiRequests((await sb.state()).requests) - before);
    }
    store.db.close();
    const m = median(perCycle);
    return {
      name: `polling: ${DUBS} active v2 dubs, requests per poll cycle`,
      measured: m,
      unit: 'requests',
      target: '<= 11',
      reference: `one per dub: ${DUBS}`,
      ratio: ratioOf(m, DUBS),
      pass: m <= 11,
    };
  } finally {
    await sb.stop();
  }
}

/** The sandbox's time for each dub: the figure runs from the moment it is due, whatever its length. */
const PIPELINE_S = 1;
const INTERVAL_MS = 1000;
const SEEN_DUBS = 10;

async function completionSeen(work: string): Promise<Figure> {
  const sb = await benchSandbox({ pipelineSeconds: PIPELINE_S, balance: 1e9, ffmpeg: false });
  try {
    // Ten contents (an ID3v1 tag with the file's number after the same sound): copies of one file would be
    // dubbed once and linked, and the figure would be the worst of one dub.
    const sound = readFileSync(audioMp3(1, 'poll.mp3'));
    const files = Array.from({ length: SEEN_DUBS }, (_, i) => {
      const p = join(work, `seen-${i}.mp3`);
      const tag = Buffer.alloc(128);
      tag.write(`TAGseen ${i}`, 0, 'latin1');
      writeFileSync(p, Buffer.concat([sound, tag]));
      return p;
    });
    const home = mkdtempSync(join(work, 'seen-'));
    const host = openDubdesk({ home, face: 'cli', service: { baseUrl: sb.baseUrl, apiKey: API_KEY } });
    const downloading = new Map<string, number>();
    host.api.subscribe((e) => {
      if (
        e.type === 'job' &&
        e.job.state === 'downloading' &&
        e.job.remoteId &&
        !downloading.has(e.job.remoteId)
      )
        downloading.set(e.job.remoteId, Date.now());
    });
    await host.api.add({ inputs: files, to: ['es'], outDir: join(work, 'seen-out'), force: true });
    // One upload at a time: the dubs fall due one after the other, each at its own moment between polls.
    await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: INTERVAL_MS });
    await host.close();
    const list = (await (
      await fetch(`${sb.baseUrl}/api/v2/dubs?page_size=100`, { headers: { apikey: API_KEY } })
    ).json()) as DubListV2;
    if (list.dubs.length !== SEEN_DUBS)
      throw new Error(`${list.dubs.length} dubs made of ${SEEN_DUBS} files`);
    const delays = list.dubs.map((d) => {
      const seen = downloading.get(d.id);
      if (seen === undefined) throw new Error(`dub ${d.id} never seen completed`);
      return seen - (Date.parse(d.created_at) + PIPELINE_S * 1000);
    });
    const worst = Math.max(...delays);
    return {
      name: `completion seen: dub due on the sandbox -> download begins (worst of ${delays.length}, median ${round(median(delays), 0)} ms)`,
      measured: round(worst, 0),
      unit: 'ms',
      target: `<= one poll interval (${INTERVAL_MS})`,
      reference: `poll interval: ${INTERVAL_MS} ms`,
      ratio: ratioOf(worst, INTERVAL_MS),
      pass: worst <= INTERVAL_MS,
    };
  } finally {
    await sb.stop();
  }
}

export async function pollingFigures(work: string): Promise<Figure[]> {
  const took = partClock('polling');
  const perCycle = await requestsPerCycle(work);
  took('requests per cycle (1,000 dubs made, then 3 polls)');
  const seen = await completionSeen(work);
  took(`completion seen (${SEEN_DUBS} dubs)`);
  return [perCycle, seen];
}
