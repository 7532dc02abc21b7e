import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, EXTERNAL_STATUSES, INTERNAL_STATUSES } from '../../../shared/api/common';
import { ProjectLegacy, ProjectLegacyList } from '../../../shared/api/legacy';
import { DubV2 } from '../../../shared/api/v2';
import { LEGACY_CODES } from '../../../shared/languages';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { call, waitFor } from '../../helpers/http';

const KEY = 'legacy-main';
let sb: Sandbox;
const auth = { ApiKey: KEY };
const body = { dest_lang: 'fr', duration: 3, fileType: 'video/mp4', name: 'talk.mp4', source_lang: 'auto' };

beforeAll(async () => {
  sb = await startSandbox({
    apiKey: KEY,
    balance: 100,
    users: [
      { apiKey: 'legacy-other', seconds: 10 },
      { apiKey: 'legacy-broke', seconds: 0 },
    ],
    pipelineSeconds: 1,
  });
});
afterAll(() => sb.stop());

describe('legacy', () => {
  it('lives under its own root with the ApiKey header', async () => {
    expect(sb.legacyUrl).toBe(`${sb.baseUrl}/legacy`);
    expect((await call('GET', `${sb.legacyUrl}/v1/dubs`)).status).toBe(401);
    expect((await call('GET', `${sb.legacyUrl}/v1/dubs`, { headers: { ApiKey: 'nope' } })).status).toBe(401);
    const r = await call('GET', `${sb.legacyUrl}/v1/dubs`, { headers: auth });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('init-dub accepts only the 17 codes (auto as source) and only video/mp4', async () => {
    expect(LEGACY_CODES).toHaveLength(17);
    for (const bad of [
      { ...body, dest_lang: 'sw' },
      { ...body, dest_lang: 'auto' },
      { ...body, source_lang: 'uk' },
      { ...body, fileType: 'video/quicktime' },
      { ...body, fileType: 'audio/mpeg' },
      { ...body, duration: 2.5 },
      { ...body, duration: undefined },
      { ...body, name: undefined },
    ]) {
      const r = await call('POST', `${sb.legacyUrl}/v1/init-dub`, { headers: auth, json: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      ErrorBody.strict().parse(r.body);
    }
  });

  it('the full flow walks internal statuses 1..10 with their names and charges once', async () => {
    const init = await call('POST', `${sb.legacyUrl}/v1/init-dub`, {
      headers: auth,
      json: { ...body, source_lang: 'en' },
    });
    expect(init.status).toBe(200);
    const project = ProjectLegacy.strict().parse(init.body);
    expect(project).toMatchObject({
      internalStatusId: 1,
      externalStatusId: 1,
      progressPercentage: 0,
      type: 'video/mp4',
      source: 'api',
      source_lang: 'en',
      dest_lang: 'fr',
      isWatermark: false,
      errorMessage: null,
    });
    expect(project.key).toContain(project.id);
    const start = () =>
      call('POST', `${sb.legacyUrl}/v1/start-dub`, { headers: auth, json: { id: project.id } });
    expect((await start()).status).toBe(412);
    expect(
      (
        await call('PUT', project.uploadUrl, {
          headers: { 'content-type': 'video/mp4' },
          body: await readFile(videoMp4()),
        })
      ).status,
    ).toBe(200);
    const started = await start();
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ status: 'success' });
    expect((await start()).status).toBe(409);

    const seen = new Set<number>();
    const done = await waitFor('legacy dub to complete', async () => {
      const list = ProjectLegacyList.parse(
        (await call('GET', `${sb.legacyUrl}/v1/dubs`, { headers: auth })).body,
      );
      const item = list.find((p) => p.id === project.id);
      if (!item) return undefined;
      seen.add(item.internalStatusId);
      expect(item.internalStatus).toEqual({
        id: item.internalStatusId,
        ...INTERNAL_STATUSES[item.internalStatusId],
      });
      expect(item.externalStatus).toEqual({
        id: item.externalStatusId,
        ...EXTERNAL_STATUSES[item.externalStatusId],
      });
      return item.externalStatusId === 5 ? item : undefined;
    });
    expect(done.internalStatus).toEqual({ id: 10, name: 'Completed', alias: 'completed' });
    expect(done.progressPercentage).toBe(100);
    expect([...seen].some((s) => s > 1 && s < 10)).toBe(true);
    const charge = sb.state.ledger.filter((c) => c.dubId === project.id);
    expect(charge).toHaveLength(1);
    const v2 = DubV2.parse(
      (await call('GET', `${sb.baseUrl}/api/v2/dubs/${project.id}`, { headers: { apikey: KEY } })).body,
    );
    expect(charge[0]?.seconds).toBe(Math.ceil(v2.measured_duration ?? 0));
  });

  it('start-dub answers 404 unknown, 403 not yours, 402 no balance, 400 without id', async () => {
    const startAs = (key: string, id: unknown) =>
      call('POST', `${sb.legacyUrl}/v1/start-dub`, { headers: { ApiKey: key }, json: { id } });
    expect((await startAs(KEY, 'missing')).status).toBe(404);
    expect((await startAs(KEY, undefined)).status).toBe(400);
    const initAs = async (key: string) =>
      ProjectLegacy.parse(
        (await call('POST', `${sb.legacyUrl}/v1/init-dub`, { headers: { ApiKey: key }, json: body })).body,
      );
    const theirs = await initAs('legacy-other');
    expect((await startAs(KEY, theirs.id)).status).toBe(403);
    const broke = await initAs('legacy-broke');
    await call('PUT', broke.uploadUrl, {
      headers: { 'content-type': 'video/mp4' },
      body: await readFile(videoMp4()),
    });
    expect((await startAs('legacy-broke', broke.id)).status).toBe(402);
  });

  it('a failed project carries its error as an object (the spec types it "null or object")', async () => {
    const init = ProjectLegacy.parse(
      (
        await call('POST', `${sb.legacyUrl}/v1/init-dub`, {
          headers: auth,
          json: { ...body, name: 'bad.mp4' },
        })
      ).body,
    );
    await call('PUT', init.uploadUrl, {
      headers: { 'content-type': 'video/mp4' },
      body: 'not a video at all',
    });
    expect(
      (await call('POST', `${sb.legacyUrl}/v1/start-dub`, { headers: auth, json: { id: init.id } })).status,
    ).toBe(200);
    const failed = await waitFor('the project to fail', async () => {
      const list = ProjectLegacyList.parse(
        (await call('GET', `${sb.legacyUrl}/v1/dubs`, { headers: auth })).body,
      );
      const p = list.find((x) => x.id === init.id);
      return p?.externalStatusId === 4 ? p : undefined;
    });
    expect(failed.errorMessage).toEqual({ message: expect.stringMatching(/Could not read the media/) });
    expect(failed.externalErrorMessage).toEqual(failed.errorMessage);
  });
});
