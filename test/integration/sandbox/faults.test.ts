import { afterEach, describe, expect, it } from 'vitest';
import { DubListV2, DubV2 } from '../../../shared/api/v2';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { call, formWithFile, waitFor } from '../../helpers/http';

const auth = { apikey: 'sandbox-key' };
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

async function completedDub(s: Sandbox): Promise<DubV2> {
  const created = DubV2.parse(
    (
      await call('POST', `${s.baseUrl}/api/v2/dubs`, {
        headers: auth,
        body: await formWithFile(videoMp4(), { dest_lang: 'es' }),
      })
    ).body,
  );
  return waitFor('completion', async () => {
    const d = DubV2.parse(
      (await call('GET', `${s.baseUrl}/api/v2/dubs/${created.id}`, { headers: auth })).body,
    );
    return d.external_status_id === 5 ? d : undefined;
  });
}

describe('fault injection', () => {
  it('drops connections before any work (reset)', async () => {
    sb = await startSandbox({ faults: { rateReset: 1 } });
    await expect(fetch(`${sb.baseUrl}/api/v2/me`, { headers: auth })).rejects.toThrow();
    expect(sb.faults.fired.rateReset).toBe(1);
    // Public endpoints are never faulted: tests can always read the language list.
    expect((await fetch(`${sb.baseUrl}/api/langs`)).status).toBe(200);
  });

  it('loses the response after the work is done: the dub exists though the caller saw an error', async () => {
    sb = await startSandbox({ pipelineSeconds: 60, faults: { rateLostResponse: 1 } });
    await expect(
      fetch(`${sb.baseUrl}/api/v2/dubs`, {
        method: 'POST',
        headers: auth,
        body: await formWithFile(videoMp4(), { dest_lang: 'es', name: 'lost.mp4' }),
      }),
    ).rejects.toThrow();
    const list = DubListV2.parse((await call('GET', `${sb.baseUrl}/api/v2/dubs`, { headers: auth })).body);
    expect(list.dubs.map((d) => d.name)).toEqual(['lost.mp4']);
    expect(list.dubs[0]?.external_status_id).toBe(2);
  });

  it('answers 502 to ordinary API calls at the given rate', async () => {
    sb = await startSandbox({ faults: { rate502: 1 } });
    const r = await call('GET', `${sb.baseUrl}/api/v2/dubs`, { headers: auth });
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ error: 'Processing backend unavailable' });
  });

  it('cuts downloads halfway (truncate) and refuses links as expired, then serves them whole', async () => {
    sb = await startSandbox({ pipelineSeconds: 0.2 });
    const dub = await completedDub(sb);
    const url = dub.outputs.translated_mp4?.download_url ?? '';
    const whole = (await (await fetch(url)).arrayBuffer()).byteLength;
    sb.setFaults({ rateTruncate: 1 });
    const res = await fetch(url);
    expect(Number(res.headers.get('content-length'))).toBe(whole);
    await expect(res.arrayBuffer()).rejects.toThrow();
    sb.setFaults({ rateTruncate: 0, rateExpireLink: 1 });
    expect((await call('GET', url)).status).toBe(403);
    sb.setFaults({ rateExpireLink: 0 });
    expect((await (await fetch(url)).arrayBuffer()).byteLength).toBe(whole);
  });

  it('fails dubs in the pipeline without charging them', async () => {
    sb = await startSandbox({ pipelineSeconds: 0.2, faults: { rateDubFailure: 1 } });
    const created = DubV2.parse(
      (
        await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: auth,
          body: await formWithFile(videoMp4(), { dest_lang: 'es' }),
        })
      ).body,
    );
    const s = sb;
    const failed = await waitFor('failure', async () => {
      const d = DubV2.parse(
        (await call('GET', `${s.baseUrl}/api/v2/dubs/${created.id}`, { headers: auth })).body,
      );
      return d.external_status_id === 4 ? d : undefined;
    });
    expect(failed.external_error_message).toMatch(/simulated/);
    expect(sb.state.ledger).toEqual([]);
  });

  it('replays the same faults for the same seed', async () => {
    const outcomes = async (seed: number) => {
      const s = await startSandbox({ seed, faults: { rate502: 0.5 } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++)
        statuses.push((await call('GET', `${s.baseUrl}/api/v2/me`, { headers: auth })).status);
      await s.stop();
      return statuses;
    };
    const a = await outcomes(7);
    expect(await outcomes(7)).toEqual(a);
    expect(a).toContain(502);
    expect(a).toContain(200);
    expect(await outcomes(8)).not.toEqual(a);
  });

  it('changes faults at runtime over HTTP too', async () => {
    sb = await startSandbox();
    const admin = { 'x-sandbox-admin': sb.adminToken };
    const r = await call('PUT', `${sb.baseUrl}/__sandbox/faults`, {
      headers: admin,
      json: { rate502: 1, latencyMs: 5 },
    });
    expect(r.status).toBe(200);
    expect(sb.faults.get()).toMatchObject({ rate502: 1, latencyMs: 5 });
    expect((await call('GET', `${sb.baseUrl}/api/v2/me`, { headers: auth })).status).toBe(502);
    expect(
      (await call('PUT', `${sb.baseUrl}/__sandbox/faults`, { headers: admin, json: { rate502: 2 } })).status,
    ).toBe(400);
  });

  it('changes only the faults a PUT names, and refuses a name it does not know, saying which', async () => {
    const started = await startSandbox({ faults: { rateTruncate: 0.25, latencyMs: 7 } });
    sb = started;
    const admin = { 'x-sandbox-admin': started.adminToken };
    const put = (json: unknown) =>
      call('PUT', `${started.baseUrl}/__sandbox/faults`, { headers: admin, json });
    const r = await put({ rate502: 0.5 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ rate502: 0.5, rateTruncate: 0.25, latencyMs: 7 });
    expect(started.faults.get()).toMatchObject({ rate502: 0.5, rateTruncate: 0.25, latencyMs: 7 });

    const typo = await put({ rate520: 1 });
    expect(typo.status).toBe(400);
    expect(JSON.stringify(typo.body)).toMatch(/rate520/);
    const mixed = await put({ rate502: 0, latency: 5 });
    expect(mixed.status).toBe(400);
    expect(JSON.stringify(mixed.body)).toMatch(/latency/);
    // Refused whole: the good half of a bad body changed nothing.
    expect(started.faults.get()).toMatchObject({ rate502: 0.5, rateTruncate: 0.25, latencyMs: 7 });
    expect((await put([])).status).toBe(400);
    expect((await put(null)).status).toBe(400);
  });
});

describe('a huge list', () => {
  it('is sent to a slow reader without piling listeners on the response (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const heard = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', heard);
    try {
      sb = await startSandbox({ faults: { listFault: 'huge' } });
      const res = await fetch(`${sb.baseUrl}/api/v2/dubs`, { headers: auth });
      if (!res.body) throw new Error('the list came with no body');
      const reader = res.body.getReader();
      let bytes = 0;
      // A reader that falls behind, as a busy client does: the sandbox waits for the socket to drain, many times.
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        bytes += part.value.byteLength;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      expect(bytes).toBeGreaterThan(100 * 1024 * 1024);
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', heard);
    }
  });
});
