import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../electron/engine/api/classify';
import { ApiError, RETRY, kindForStatus } from '../../electron/engine/api/errors';
import { parseJson } from '../../electron/engine/api/http';
import { parseContentRange, planDownload, unsatisfiedLength } from '../../electron/engine/api/ranges';
import { LangList } from '../../shared/api/common';
import { ProjectLegacy, ProjectLegacyList, StartDubLegacyResponse } from '../../shared/api/legacy';
import { DubListV1, InitDubV1Response, ProfileV1, StartDubV1Response } from '../../shared/api/v1';
import { DubListV2, DubV2, ProfileV2 } from '../../shared/api/v2';
import { presignedExpiry } from '../../shared/presigned';
import { arbitraryFor } from '../helpers/zod-arbitrary';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const URL_ = 'https://svc.example/api/v2/dubs?page=1';
const reply = (body: string) => ({ status: 200, headers: {}, body });

/** Every schema a client parses a 2xx answer with. */
const SCHEMAS = {
  ProfileV2,
  DubV2,
  DubListV2,
  ProfileV1,
  DubListV1,
  InitDubV1Response,
  StartDubV1Response,
  ProjectLegacy,
  ProjectLegacyList,
  StartDubLegacyResponse,
  LangList,
};

/** Text a service might send: garbage, any JSON, and valid answers with one field broken. */
function hostileBodies(schema: (typeof SCHEMAS)[keyof typeof SCHEMAS]): fc.Arbitrary<string> {
  const broken = fc
    .tuple(arbitraryFor(schema), fc.string({ maxLength: 12 }), fc.jsonValue())
    .map(([valid, key, value]) => {
      if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
        const keys = Object.keys(valid);
        const target = keys.length ? (keys[key.length % keys.length] as string) : key;
        return JSON.stringify({ ...valid, [target]: value });
      }
      return JSON.stringify([valid, value]);
    });
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.json({ maxDepth: 4 }),
    broken,
    fc.constantFrom('', 'null', '[]', '{}', '{"dubs":', '\uFEFF{}', '1e999', '"\u001b]0;x\u0007"'),
  );
}

describe.each(Object.entries(SCHEMAS))('the %s parser', (_name, schema) => {
  it('round-trips every answer the spec allows', () => {
    fc.assert(
      fc.property(arbitraryFor(schema), (value) => {
        expect(parseJson(schema, reply(JSON.stringify(value)), URL_, [])).toEqual(value);
      }),
      { numRuns: 200 },
    );
  });

  it('answers anything else with a protocol ApiError, never another crash', () => {
    fc.assert(
      fc.property(hostileBodies(schema), (body) => {
        let out: unknown;
        try {
          out = parseJson(schema, reply(body), URL_, []);
        } catch (e) {
          expect(e).toBeInstanceOf(ApiError);
          expect(e).toMatchObject({ kind: 'protocol', retry: 'bounded' });
          expect((e as ApiError).message).not.toMatch(CONTROL);
          return;
        }
        expect(schema.safeParse(out).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('errorFromResponse', () => {
  const bodies = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.json({ maxDepth: 3 }),
    fc
      .record(
        { error: fc.string({ unit: 'binary', maxLength: 2000 }), id: fc.string({ unit: 'binary' }) },
        { requiredKeys: ['error'] },
      )
      .map((b) => JSON.stringify(b)),
  );

  it('types every status and body, with a clean, bounded message', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 999 }), bodies, (status, body) => {
        const e = errorFromResponse(status, body, URL_);
        expect(e).toBeInstanceOf(ApiError);
        expect(e.kind).toBe(kindForStatus(status));
        expect(e.retry).toBe(RETRY[e.kind]);
        expect(e.status).toBe(status);
        expect(e.message).not.toMatch(CONTROL);
        expect(e.message.length).toBeLessThanOrEqual(1000);
        expect(e.message).toContain(`HTTP ${status} from https://svc.example/api/v2/dubs?…`);
        expect(e.remoteId === null || !CONTROL.test(e.remoteId)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps a plain service message and dub id as they are', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 400, max: 599 }),
        fc
          .stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.'-]{0,80}[A-Za-z0-9.]$/)
          .map((s) => s.replace(/ +/g, ' ')),
        fc.stringMatching(/^[a-z0-9-]{1,40}$/),
        (status, message, id) => {
          const e = errorFromResponse(status, JSON.stringify({ error: message, id }), URL_);
          expect(e.message).toBe(`${message} (HTTP ${status} from https://svc.example/api/v2/dubs?…)`);
          expect(e.remoteId).toBe(id);
        },
      ),
    );
  });

  it('classifies by status as the table says', () => {
    const expected: Record<number, string> = {
      400: 'bad-request/never',
      401: 'auth/never',
      402: 'credits/never',
      403: 'forbidden/never',
      404: 'not-found/never',
      408: 'server/bounded',
      409: 'conflict/never',
      412: 'not-uploaded/never',
      413: 'too-large/never',
      418: 'http/never',
      429: 'rate-limited/bounded',
      500: 'server/bounded',
      502: 'backend/bounded',
      503: 'server/bounded',
    };
    const got = Object.fromEntries(
      Object.keys(expected).map((s) => {
        const e = errorFromResponse(Number(s), '', URL_);
        return [s, `${e.kind}/${e.retry}`];
      }),
    );
    expect(got).toEqual(expected);
  });
});

describe('presignedExpiry', () => {
  it('never throws, whatever the link', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc
            .tuple(fc.string(), fc.string(), fc.string())
            .map(([d, t, e]) => `https://s/o?X-Amz-Date=${d}&X-Amz-Expires=${t}&Expires=${e}%`),
        ),
        (url) => {
          const at = presignedExpiry(url);
          expect(at === null || Number.isFinite(at)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads X-Amz-Date + X-Amz-Expires, and Expires', () => {
    const stamp = (d: Date) =>
      d
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 7 * 24 * 3600 }),
        (date, ttl) => {
          const whole = Math.floor(date.getTime() / 1000) * 1000;
          expect(presignedExpiry(`https://s/o?X-Amz-Date=${stamp(date)}&X-Amz-Expires=${ttl}&sig=a`)).toBe(
            whole + ttl * 1000,
          );
          expect(presignedExpiry(`https://s/o?Expires=${whole / 1000}`)).toBe(whole);
        },
      ),
    );
  });
});

describe('Content-Range and Content-Length handling of downloads', () => {
  const headerText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc
      .tuple(fc.nat(), fc.nat(), fc.oneof(fc.nat().map(String), fc.constant('*')))
      .map(([a, b, t]) => `bytes ${a}-${b}/${t}`),
    fc.nat().map((n) => `bytes */${n}`),
    fc.constantFrom('bytes 0-0/0', 'bytes 1-0/5', 'bytes 0-99999999999999999/1', '-1', '1e3', '0x10', ' 12 '),
  );
  const headers = fc.record(
    { 'content-range': headerText, 'content-length': headerText },
    { requiredKeys: [], noNullPrototype: true },
  );

  it('plans every answer without throwing, and never appends at the wrong offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.oneof(fc.constant(0), fc.nat(), fc.nat({ max: 2 ** 52 })),
        headers,
        (status, have, h) => {
          const plan = planDownload(status, have, h);
          if (plan.action === 'write') {
            expect([200, 206]).toContain(status);
            if (plan.append) {
              expect(status).toBe(206);
              expect(parseContentRange(h['content-range'])?.start).toBe(have);
              expect(plan.expected).toBeGreaterThan(have);
            } else expect(status).toBe(200);
            expect(plan.expected === null || Number.isSafeInteger(plan.expected)).toBe(true);
          }
          if (plan.action === 'complete') {
            expect(status).toBe(416);
            expect(have).toBeGreaterThan(0);
            expect(unsatisfiedLength(h['content-range'])).toBe(have);
          }
          if (![200, 206, 416].includes(status)) expect(plan.action).toBe('error');
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a well-formed resume is appended and expects the whole length', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 40 }), (have, rest) => {
        const total = have + rest;
        const h = { 'content-range': `bytes ${have}-${total - 1}/${total}`, 'content-length': String(rest) };
        expect(planDownload(206, have, h)).toEqual({ action: 'write', append: true, expected: total });
        expect(planDownload(200, have, { 'content-length': String(total) })).toEqual({
          action: 'write',
          append: false,
          expected: total,
        });
        if (have > 0)
          expect(planDownload(416, have, { 'content-range': `bytes */${have}` })).toEqual({
            action: 'complete',
          });
      }),
    );
  });

  it('parseContentRange round-trips sane ranges and rejects the rest', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), (a, b, c) => {
        const [start, end, total] = [a, a + b, a + b + 1 + c];
        expect(parseContentRange(`bytes ${start}-${end}/${total}`)).toEqual({ start, end, total });
        expect(parseContentRange(`bytes ${start}-${end}/*`)).toEqual({ start, end, total: null });
        if (b > 0) expect(parseContentRange(`bytes ${end}-${start}/${total}`)).toBeNull();
        expect(parseContentRange(`bytes ${start}-${end}/${end}`)).toBeNull();
      }),
    );
  });
});
