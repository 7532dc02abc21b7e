/**
 * A service that quotes the API key back (an error naming it, a failed dub's message, a 401 body) must not
 * get the key into anything Dubdesk keeps or shows: the database, `status`, `logs`, `doctor`, `me`, serve's
 * API. Keys holding `"` and `\` too, and in every form the text may carry them: as they are,
 * JSON-escaped, URL-encoded.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, type CliResult } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { bearer, raw, serveFor } from '../../helpers/serve';

const KEY = 'sk-live"quoted\\key-0123456789abcdef';
const WRONG = 'sk-wrong"typed\\key-9876543210fedcba';

/** Every form a key may take in a text: as it is, JSON-escaped, URL-encoded. */
const formsOf = (key: string) => [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)];
const FORMS = [...formsOf(KEY), ...formsOf(WRONG)];

function expectNoKey(where: string, text: string | Buffer): void {
  const s = Buffer.isBuffer(text) ? text.toString('latin1') : text;
  for (const form of FORMS) expect(s.includes(form), `${where} holds ${form}`).toBe(false);
  // Bytes of the database are searched as bytes too (UTF-8 and UTF-16, as SQLite may store either).
  if (Buffer.isBuffer(text))
    for (const form of FORMS) {
      expect(text.includes(Buffer.from(form, 'utf8')), `${where} holds ${form}`).toBe(false);
      expect(text.includes(Buffer.from(form, 'utf16le')), `${where} holds ${form} (UTF-16)`).toBe(false);
    }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile());
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({
    apiKey: KEY,
    pipelineSeconds: 0.3,
    faults: { rateQuoteKey: 1, rateDubFailure: 1 },
  });
});
afterAll(() => sb.stop());

describe('the API key quoted back by the service', () => {
  it('appears in no output: database, status, logs, doctor, me, serve', async () => {
    const work = tempDir('dubdesk-quoted-');
    const home = join(work, 'home');
    const env = envFor(sb, home, KEY);
    const outputs: [string, CliResult][] = [];
    const cli = async (name: string, args: string[], e = env) => {
      const r = await runCli(args, e, work);
      outputs.push([name, r]);
      return r;
    };

    // A dub that fails with a message quoting the key (raw, JSON-escaped and URL-encoded in it).
    const dub = await cli('dub', [
      'dub',
      videoMp4(2, 'quoted.mp4'),
      '--to',
      'es',
      '--out',
      'out',
      '--poll-interval',
      '0.1',
    ]);
    expect(dub.code, dub.stderr).toBe(1);
    expect(sb.faults.fired.rateQuoteKey).toBeGreaterThan(0);
    // An error answer naming the key, and a 401 naming the wrong key typed.
    sb.setFaults({ rate502: 1 });
    const failing = await cli('me (502)', ['me']);
    expect(failing.code).not.toBe(0);
    sb.setFaults({ rate502: 0 });
    const wrong = await cli('me (401)', ['me'], envFor(sb, home, WRONG));
    expect(wrong.code).toBe(3);
    // The service said what it said: the words are kept, the key is not.
    expect(wrong.stderr).toMatch(/quota lookup failed for key=/);

    await cli('me', ['me']);
    await cli('status', ['status']);
    await cli('status --json', ['status', '--json']);
    await cli('logs', ['logs', '1']);
    await cli('doctor', ['doctor']);
    await cli('doctor --json', ['doctor', '--json']);
    for (const [name, r] of outputs) {
      expectNoKey(`${name} stdout`, r.stdout);
      expectNoKey(`${name} stderr`, r.stderr);
    }
    const status = outputs.find(([n]) => n === 'status --json')?.[1].stdout ?? '';
    expect(status).toMatch(/quota lookup failed for key=/);

    // serve's API, what the page shows.
    const s = await serveFor(sb, { apiKey: KEY, home });
    try {
      for (const [method, input] of [
        ['listJobs', {}],
        ['getJob', { id: 1 }],
        ['jobLog', { id: 1 }],
        ['totals', {}],
        ['account', {}],
      ] as const) {
        const r = await raw(s.server.port, 'POST', `/api/${method}`, {
          headers: { ...bearer(s.server.token), 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
        expectNoKey(`serve ${method}`, r.body.toString('utf8'));
      }
    } finally {
      await s.close();
    }
    // Every file the data folder holds: the database (and its WAL), backups, logs.
    for (const file of filesUnder(home)) expectNoKey(file, readFileSync(file));
  }, 240_000);
});
