import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiGeneration } from '../../../shared/contract/jobs';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { countingProxy, type CountingProxy, type Spoil } from '../../helpers/counting-proxy';
import { quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

/**
 * Pay once: the service does what a create asks (and will charge for it), but its 2xx answer reaches
 * Dubdesk broken. The dub may exist, so the job must find it rather than create (and pay for) another.
 */

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3, balance: 10_000 });
});
afterAll(() => sb.stop());

const proxies: CountingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

type Json = Record<string, unknown>;
/** The answer's JSON, changed by `f`. */
const edit =
  (f: (o: Json) => void): Spoil =>
  (body) => {
    const o = JSON.parse(body) as Json;
    f(o);
    return JSON.stringify(o);
  };
const fileOf = (o: Json) => o.file as Json;

/** Per generation, how each kind of broken answer breaks the create's answer (v1 and legacy: init, then start). */
const SPOILS: Record<string, Record<ApiGeneration, [init: Spoil, start: Spoil | null]>> = {
  'the id missing': {
    v2: [edit((o) => delete o.id), null],
    v1: [edit((o) => delete fileOf(o).id), edit((o) => delete o.fileId)],
    legacy: [edit((o) => delete o.id), edit((o) => delete o.status)],
  },
  'a field out of range': {
    v2: [edit((o) => (o.progress_percentage = 150)), null],
    v1: [edit((o) => (fileOf(o).internalStatusId = 1.5)), edit((o) => (o.success = 'yes'))],
    legacy: [edit((o) => (o.progressPercentage = 150)), edit((o) => (o.status = 'ok'))],
  },
  'cut short': { v2: ['cut', null], v1: ['cut', 'cut'], legacy: ['cut', 'cut'] },
  'not JSON': {
    v2: [() => '<html>Service busy</html>', null],
    v1: [() => '<html>Service busy</html>', () => '<html>'],
    legacy: [() => '<html>Service busy</html>', () => '<html>'],
  },
};

const CREATE = /^\/api\/v2\/dubs$/;
const INIT = /^(\/legacy\/v1|\/api\/v1)\/init-dub$/;
const START = /^(\/legacy\/v1|\/api\/v1)\/start-dub$/;
const LIST_V2 = /^\/api\/v2\/dubs\?/;

/**
 * The sandbox behind a proxy that spoils every v2 create answer and every start answer, and the first
 * init answer (a job cannot go on before one init answer is read: it holds the upload address).
 */
async function spoiling(api: ApiGeneration, spoil: string, extra?: (path: string) => Spoil | undefined) {
  const [first, start] = SPOILS[spoil]?.[api] ?? [null, null];
  let inits = 0;
  const proxy = await countingProxy(sb.baseUrl, {
    spoil: (method, path) => {
      if (method === 'POST' && CREATE.test(path)) return first ?? undefined;
      if (method === 'POST' && INIT.test(path)) return inits++ === 0 ? (first ?? undefined) : undefined;
      if (method === 'POST' && START.test(path)) return start ?? undefined;
      return extra?.(path);
    },
  });
  proxies.push(proxy);
  return proxy;
}

function engineAt(proxy: CountingProxy, maxServiceAttempts = 4) {
  return openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: proxy.url, legacyUrl: `${proxy.url}/legacy`, apiKey: sb.account.apiKey },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts,
  });
}

/** What the service made of `name`: every dub record, those it started, and its charges. */
function madeOf(name: string) {
  const dubs = [...sb.state.dubs.values()].filter((d) => d.name === name);
  const ids = new Set(dubs.map((d) => d.id));
  return {
    dubs,
    started: dubs.filter((d) => d.queuedAt !== null),
    charges: sb.state.ledger.filter((c) => ids.has(c.dubId)),
  };
}

let n = 0;

describe.each(['v2', 'v1', 'legacy'] as const)('a %s create answered 2xx but broken', (api) => {
  it.each(Object.keys(SPOILS))('%s: the dub is found, never made twice, charged once', async (spoil) => {
    const proxy = await spoiling(api, spoil);
    const host = engineAt(proxy);
    const name = `pay-once-${api}-${++n}.mp4`;
    const { added } = await host.api.add({
      inputs: [videoMp4(2, name)],
      to: ['es'],
      api,
      outDir: tempDir(),
    });
    expect(await host.run(quickRun(1))).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    await host.close();

    expect(proxy.spans.filter((s) => s.spoiled).length).toBeGreaterThan(0);
    expect(`${job.state} ${job.error?.message ?? ''}`).toBe('completed ');
    const made = madeOf(name);
    expect(made.started.map((d) => d.id)).toEqual([job.remoteId]);
    expect(made.charges.map((c) => c.dubId)).toEqual([job.remoteId]);
    // v1 and legacy: an init whose answer was lost leaves a record never started, never charged.
    expect(made.dubs.length).toBe(api === 'v2' ? 1 : 2);
  });
});

/** How the list shows a dub whose create answer was broken, and what the job's failure then says. */
const LISTED: [string, Spoil, RegExp][] = [
  [
    'in a shape Dubdesk refuses',
    edit((o) => {
      for (const d of o.dubs as Json[]) d.progress_percentage = 150;
    }),
    /progress_percentage/,
  ],
  ['not at all', edit((o) => (o.dubs = [])), /could not be read.* not in its list/],
];

describe.each(LISTED)('a v2 create answered 2xx but broken, its dub listed %s', (_how, listed, said) => {
  it.each(Object.keys(SPOILS))(
    '%s: one dub; the job fails naming the file, the fault and the account',
    async (spoil) => {
      const proxy = await spoiling('v2', spoil, (path) => (LIST_V2.test(path) ? listed : undefined));
      const host = engineAt(proxy);
      const name = `pay-once-hidden-${++n}.mp4`;
      const { added } = await host.api.add({ inputs: [videoMp4(2, name)], to: ['es'], outDir: tempDir() });
      expect(await host.run(quickRun(1))).toBe('done');
      const job = await host.api.getJob({ id: added[0] ?? 0 });
      await host.close();

      expect(madeOf(name).dubs).toHaveLength(1);
      expect(job.state).toBe('failed');
      expect(job.error?.message).toContain(name);
      expect(job.error?.message).toMatch(said);
      expect(job.error?.remedy).toMatch(/account/);
    },
  );
});

describe('upload once: a create from the service copy answered 2xx but broken', () => {
  it('its dub listed broken too: the job fails, and no second dub of that language is made', async () => {
    // The French dub (made from the Spanish one's copy of the file) is out of shape wherever it shows.
    const broken = (d: Json) => {
      if (d.dest_lang === 'fr') d.progress_percentage = 150;
    };
    const listed = edit((o) => (o.dubs as Json[]).forEach(broken));
    const proxy = await countingProxy(sb.baseUrl, {
      spoil: (method, path) =>
        method === 'POST' && CREATE.test(path) ? edit(broken) : LIST_V2.test(path) ? listed : undefined,
    });
    proxies.push(proxy);
    const host = engineAt(proxy);
    const name = `pay-once-copy-${++n}.mp4`;
    const { added } = await host.api.add({
      inputs: [videoMp4(2, name)],
      to: ['es', 'fr'],
      uploadOnce: true,
      outDir: tempDir(),
    });
    expect(await host.run(quickRun(1))).toBe('done');
    const [es, fr] = await Promise.all(added.map((id) => host.api.getJob({ id })));
    await host.close();

    const langs = madeOf(name).dubs.map((d) => d.destLang);
    expect(langs.sort()).toEqual(['es', 'fr']);
    expect(es?.state).toBe('completed');
    expect(fr?.state).toBe('failed');
    expect(fr?.error?.message).toContain(name);
  });
});
