import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { QUOTED_KEY_TEXT, scrubText, scrubValue } from '../../electron/engine/api/scrub';
import { nestsDeeper } from '../../electron/engine/api/json-depth';
import { EngineLog, logFile } from '../../electron/engine/log/log';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'sk-a"b\\c/d e%f-0123456789';
const json = JSON.stringify(KEY).slice(1, -1);
const url = encodeURIComponent(KEY);

describe('keys scrubbed from what the service says', () => {
  it.each([
    ['as it is', `quota lookup failed for key=${KEY}`],
    ['JSON-escaped', `request was {"apikey":"${json}"}`],
    ['JSON-escaped with \\/', `request was {"apikey":"${json.replace(/\//g, '\\/')}"}`],
    ['URL-encoded', `see /keys?k=${url}`],
    ['URL-encoded, lower case', `see /keys?k=${url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`],
    ['URL-encoded with +', `see /keys?k=${url.replace(/%20/g, '+')}`],
  ])('%s', (_, text) => {
    const out = scrubText(text, [KEY]);
    expect(out).toContain('[redacted]');
    for (const form of [KEY, json, url]) expect(out).not.toContain(form);
  });

  it('a key that shows only once the text is decoded another way: the text goes whole', () => {
    const escapedEvery = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const split = `${KEY.slice(0, 5)}\u0007${KEY.slice(5)}`;
    const bidi = `${KEY.slice(0, 5)}\u202e${KEY.slice(5)}`;
    for (const text of [`key=${escapedEvery}`, `key=${split}`, `key=${bidi}`])
      expect(scrubText(text, [KEY])).toBe(QUOTED_KEY_TEXT);
  });

  it('leaves other text, and texts when no key is known, as they are', () => {
    expect(scrubText('Voice cloning failed', [KEY])).toBe('Voice cloning failed');
    expect(scrubText(`key=${KEY}`, [])).toBe(`key=${KEY}`);
    expect(scrubText('a k b', ['k'])).toBe('a k b');
  });

  it('scrubs every string of a parsed answer, property names too', () => {
    const answer = { error: `bad ${KEY}`, nested: [{ [KEY]: 1, m: `x ${url}` }], n: 3, ok: true, none: null };
    expect(JSON.stringify(scrubValue(answer, [KEY]))).not.toMatch(/sk-a/);
    expect(scrubValue(answer, [KEY])).toMatchObject({ n: 3, ok: true, none: null });
  });

  it('refuses nesting past reason without walking it', () => {
    const deep = `{"dubs":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect(nestsDeeper(deep)).toBe(true);
    expect(
      nestsDeeper('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}'),
    ).toBe(false);
    expect(nestsDeeper('{"dubs":[{"outputs":{"x":{"url":"u"}}}]}')).toBe(false);
  });
});

describe("the log's lines", () => {
  it('hold no key, whatever characters it has: a JSON line escapes " and \\', async () => {
    const home = tempDir();
    mkdirSync(join(home, 'logs'));
    const log = new EngineLog(home, () => [KEY]);
    log.logger.info({ said: `the service said key=${KEY}`, url: `https://x/?k=${url}` }, `quoted ${KEY}`);
    log.close();
    const text = await vi.waitFor(() => {
      const t = readFileSync(logFile(home), 'utf8');
      expect(t).toContain('quoted');
      return t;
    });
    expect(text).toContain('[redacted]');
    for (const form of [KEY, json, url]) expect(text).not.toContain(form);
  });
});
