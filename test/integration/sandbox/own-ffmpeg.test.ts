/**
 * The desktop app's built-in sandbox, started from Finder or the Start menu, has no shell PATH and so no
 * ffmpeg on it. It must make its dubs with the ffmpeg shipped with Dubdesk, as the engine does: without one,
 * it fell back to silent stand-ins, and QC then called every dub of a new user's first try silent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DubV2 } from '../../../shared/api/v2';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { loudness, videoMp4 } from '../../helpers/media';

const auth = { apikey: 'sandbox-key' };
const pathBefore = process.env.PATH;
let sb: Sandbox | undefined;
afterEach(async () => {
  process.env.PATH = pathBefore;
  await sb?.stop();
  sb = undefined;
});

describe("the sandbox's media tools", () => {
  it('dubs with the ffmpeg shipped with Dubdesk when the PATH has none: the dubbed sound is the upload’s, not silence', async () => {
    const video = videoMp4(4, 'a tone of four seconds.mp4');
    process.env.PATH = mkdtempSync(join(tmpdir(), 'a PATH without ffmpeg '));
    sb = await startSandbox({ pipelineSeconds: 0.2 });
    const s = sb;
    const form = await formWithFile(video, { dest_lang: 'es' });
    const created = await call('POST', `${s.baseUrl}/api/v2/dubs`, { headers: auth, body: form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = DubV2.parse(created.body).id;
    const done = await waitFor('the dub to complete', async () => {
      const dub = DubV2.parse((await call('GET', `${s.baseUrl}/api/v2/dubs/${id}`, { headers: auth })).body);
      return dub.external_status_id === 5 ? dub : undefined;
    });
    const link = done.outputs.translated_mp3?.download_url;
    if (!link) throw new Error('the dub has no translated_mp3');
    const mp3 = join(mkdtempSync(join(tmpdir(), 'dubbed ')), 'es.mp3');
    writeFileSync(mp3, Buffer.from(await (await fetch(link)).arrayBuffer()));
    process.env.PATH = pathBefore;
    // The upload's tone is about -21 LUFS; a silent stand-in measures -70.
    expect(loudness(mp3)).toBeGreaterThan(-40);
  });
});
