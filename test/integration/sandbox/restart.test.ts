import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findRunningSandbox,
  SandboxStateError,
  startSandbox,
  type Sandbox,
} from '../../../electron/sandbox/server';
import { InitDubV1Response } from '../../../shared/api/v1';
import { DubListV2, DubV2, ProfileV2 } from '../../../shared/api/v2';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';
import { startSandboxProcess, type SandboxProcess } from '../../helpers/sandbox-process';

const KEY = 'restart-key';
const auth = { apikey: KEY };
const running: (Sandbox | SandboxProcess)[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

async function open(stateDir: string, extra: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ apiKey: KEY, balance: 1000, pipelineSeconds: 0.3, stateDir, ...extra });
  running.push(sb);
  return sb;
}

async function close(sb: Sandbox): Promise<void> {
  running.splice(running.indexOf(sb), 1);
  await sb.stop();
}

async function dubStatus(baseUrl: string, id: string): Promise<DubV2> {
  const r = await call('GET', `${baseUrl}/api/v2/dubs/${id}`, { headers: auth });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return DubV2.parse(r.body);
}

async function create(baseUrl: string, name = 'kept.mp4'): Promise<DubV2> {
  const r = await call('POST', `${baseUrl}/api/v2/dubs`, {
    headers: auth,
    body: await formWithFile(videoMp4(), { dest_lang: 'es', name }),
  });
  expect(r.status).toBe(201);
  return DubV2.parse(r.body);
}

const until = (baseUrl: string, id: string, status: number) =>
  waitFor(`dub ${id} at status ${status}`, async () => {
    const d = await dubStatus(baseUrl, id);
    return d.external_status_id >= status ? d : undefined;
  });

describe('a sandbox with a state directory', () => {
  it('serves the same dubs, balances, links, clock and port after a restart', async () => {
    const dir = tempDir('dubdesk-state-');
    const a = await open(dir, { users: [{ apiKey: 'second', seconds: 50 }] });
    const done = await until(a.baseUrl, (await create(a.baseUrl)).id, 5);
    const init = InitDubV1Response.parse(
      (
        await call('POST', `${a.baseUrl}/api/v1/init-dub`, {
          headers: auth,
          json: { fileType: 'video/mp4', name: 'later.mp4', source_lang: 'auto', dest_lang: 'fr' },
        })
      ).body,
    );
    a.advanceClock(120);
    const link = done.outputs.translated_mp4?.download_url ?? '';
    const bytes = Buffer.from(await (await fetch(link)).arrayBuffer());
    const before = {
      me: ProfileV2.parse((await call('GET', `${a.baseUrl}/api/v2/me`, { headers: auth })).body),
      list: DubListV2.parse((await call('GET', `${a.baseUrl}/api/v2/dubs`, { headers: auth })).body),
      ledger: [...a.state.ledger],
    };
    expect(before.me.seconds).toBe(1000 - Math.ceil(done.measured_duration ?? 0));
    await close(a);
    // What a kill in the middle of an upload leaves behind is cleared at the next start.
    await writeFile(join(dir, 'uploads', 'v2-cut-off-upload'), 'partial');

    const b = await open(dir, { balance: 5 /* a known account keeps its balance */ });
    expect(b.baseUrl).toBe(a.baseUrl);
    expect(b.state.clockOffsetMs).toBe(120_000);
    const me = ProfileV2.parse((await call('GET', `${b.baseUrl}/api/v2/me`, { headers: auth })).body);
    expect(me).toEqual(before.me);
    expect(
      ProfileV2.parse((await call('GET', `${b.baseUrl}/api/v2/me`, { headers: { apikey: 'second' } })).body)
        .seconds,
    ).toBe(50);
    const list = DubListV2.parse((await call('GET', `${b.baseUrl}/api/v2/dubs`, { headers: auth })).body);
    expect(list.dubs.map((d) => ({ ...d, outputs: Object.keys(d.outputs) }))).toEqual(
      before.list.dubs.map((d) => ({ ...d, outputs: Object.keys(d.outputs) })),
    );
    expect(b.state.ledger).toEqual(before.ledger);
    // Links handed out before the restart still work, and still expire.
    expect(Buffer.from(await (await fetch(link)).arrayBuffer())).toEqual(bytes);
    expect(existsSync(join(dir, 'uploads', 'v2-cut-off-upload'))).toBe(false);
    const original = await fetch(done.outputs.original?.download_url ?? '');
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer())).toEqual(await readFile(videoMp4()));
    const put = await call('PUT', init.uploadUrl, {
      headers: { 'content-type': 'video/mp4' },
      body: await readFile(videoMp4()),
    });
    expect(put.status).toBe(200);
    const start = await call('POST', `${b.baseUrl}/api/v1/start-dub`, {
      headers: auth,
      json: { fileId: init.file.id },
    });
    expect(start.status).toBe(200);
    // The id sequence carries on: a new dub is the newest.
    const fresh = await create(b.baseUrl, 'after.mp4');
    const after = DubListV2.parse((await call('GET', `${b.baseUrl}/api/v2/dubs`, { headers: auth })).body);
    expect(after.dubs[0]?.id).toBe(fresh.id);
    b.advanceClock(3601);
    expect((await fetch(link)).status).toBe(403);
  });

  it('finishes a dub that was mid-pipeline when it stopped, and charges it once', async () => {
    const dir = tempDir('dubdesk-state-');
    const a = await open(dir, { pipelineSeconds: 3 });
    const created = await create(a.baseUrl);
    await until(a.baseUrl, created.id, 3);
    await close(a);
    const b = await open(dir, { pipelineSeconds: 3 });
    const done = await until(b.baseUrl, created.id, 5);
    expect(done.external_status_id).toBe(5);
    const charges = b.state.ledger.filter((c) => c.dubId === created.id);
    expect(charges.map((c) => c.seconds)).toEqual([Math.ceil(done.measured_duration ?? 0)]);
    expect(b.account.seconds).toBe(1000 - (charges[0]?.seconds ?? 0));
  });

  it('answers a change only once it is on disk', async () => {
    const dir = tempDir('dubdesk-state-');
    const sb = await open(dir, { pipelineSeconds: 600 });
    const onDisk = async (id: string) =>
      JSON.parse(await readFile(join(dir, 'dubs', `${id}.json`), 'utf8')) as {
        uploaded: boolean;
        queuedAt: unknown;
      };
    // Read the moment each answer arrives: nothing may still be waiting to be written.
    const created = await create(sb.baseUrl);
    expect((await onDisk(created.id)).queuedAt).not.toBeNull();
    const init = InitDubV1Response.parse(
      (
        await call('POST', `${sb.baseUrl}/api/v1/init-dub`, {
          headers: auth,
          json: { fileType: 'video/mp4', name: 'v1.mp4', source_lang: 'auto', dest_lang: 'fr' },
        })
      ).body,
    );
    expect((await onDisk(init.file.id)).uploaded).toBe(false);
    const put = await call('PUT', init.uploadUrl, {
      headers: { 'content-type': 'video/mp4' },
      body: await readFile(videoMp4()),
    });
    expect(put.status).toBe(200);
    expect((await onDisk(init.file.id)).uploaded).toBe(true);
    const started = await call('POST', `${sb.baseUrl}/api/v1/start-dub`, {
      headers: auth,
      json: { fileId: init.file.id },
    });
    expect(started.status).toBe(200);
    expect((await onDisk(init.file.id)).queuedAt).not.toBeNull();
  });

  it('takes a free port when its last one is taken', async () => {
    const dir = tempDir('dubdesk-state-');
    const a = await open(dir);
    const port = a.port;
    await close(a);
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(port, '127.0.0.1', r));
    try {
      const b = await open(dir);
      expect(b.port).not.toBe(port);
      expect((await call('GET', `${b.baseUrl}/api/v2/me`, { headers: auth })).status).toBe(200);
    } finally {
      squatter.close();
    }
  });

  it('refuses a second sandbox on the same directory, and names the damaged file', async () => {
    const dir = tempDir('dubdesk-state-');
    expect(await findRunningSandbox(dir)).toBeNull();
    const a = await open(dir);
    await expect(open(dir)).rejects.toThrow(/in use by another sandbox/);
    expect(await findRunningSandbox(dir)).toBe(a.baseUrl);
    await close(a);
    expect(await findRunningSandbox(dir)).toBeNull();
    await writeFile(join(dir, 'meta.json'), '{"format":1,"signingSecret":"nope"');
    const e = await open(dir).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(SandboxStateError);
    expect((e as Error).message).toContain(join(dir, 'meta.json'));
    expect((e as Error).message).toMatch(/delete the state directory/);
    const cli = await runCli(['sandbox', '--port', '0', '--state-dir', dir], process.env);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(join(dir, 'meta.json'));
    expect(cli.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('kill -9', () => {
  async function child(dir: string): Promise<SandboxProcess> {
    const sp = await startSandboxProcess(['--state-dir', dir, '--api-key', KEY, '--pipeline-seconds', '2'], {
      port: 'remembered',
    });
    running.push(sp);
    return sp;
  }
  async function kill9(sp: SandboxProcess): Promise<void> {
    sp.child.kill('SIGKILL');
    await sp.exited;
    running.splice(running.indexOf(sp), 1);
  }

  it('right after a 201 or 200 keeps what was answered; media work under way resumes', async () => {
    const dir = tempDir('dubdesk-state-');
    const first = await child(dir);
    const created = await create(first.baseUrl);
    const init = InitDubV1Response.parse(
      (
        await call('POST', `${first.baseUrl}/api/v1/init-dub`, {
          headers: auth,
          json: { fileType: 'video/mp4', name: 'v1.mp4', source_lang: 'auto', dest_lang: 'fr' },
        })
      ).body,
    );
    expect(
      (
        await call('PUT', init.uploadUrl, {
          headers: { 'content-type': 'video/mp4' },
          body: await readFile(videoMp4()),
        })
      ).status,
    ).toBe(200);
    await kill9(first);

    const second = await child(dir);
    expect(second.baseUrl).toBe(first.baseUrl);
    expect((await dubStatus(second.baseUrl, created.id)).name).toBe('kept.mp4');
    const start = await call('POST', `${second.baseUrl}/api/v1/start-dub`, {
      headers: auth,
      json: { fileId: init.file.id },
    });
    expect(start.status).toBe(200);
    await until(second.baseUrl, init.file.id, 3);
    await kill9(second);

    const third = await child(dir);
    const done = [await until(third.baseUrl, created.id, 5), await until(third.baseUrl, init.file.id, 5)];
    const state = (
      await call('GET', `${third.baseUrl}/__sandbox/state`, {
        headers: { 'x-sandbox-admin': third.adminToken },
      })
    ).body as { ledger: { dubId: string; seconds: number }[] };
    for (const d of done) {
      expect(d.external_status_id).toBe(5);
      expect(state.ledger.filter((c) => c.dubId === d.id).map((c) => c.seconds)).toEqual([
        Math.ceil(d.measured_duration ?? 0),
      ]);
    }
  });
});
