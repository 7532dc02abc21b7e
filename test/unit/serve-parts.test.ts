import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/contract/errors';
import { MediaTokens } from '../../electron/web/media-tokens';
import { STATUS_OF } from '../../electron/web/replies';
import { canonicalPath } from '../../electron/web/guard';
import { stagedName } from '../../electron/web/staged-name';
import { bearerOf, newToken, sameToken } from '../../electron/web/token';

describe('serve: tokens', () => {
  it('makes 32 random bytes as base64url, never twice the same', () => {
    const tokens = new Set(Array.from({ length: 100 }, newToken));
    expect(tokens.size).toBe(100);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('compares whatever the lengths (timingSafeEqual on digests, so no length check leaks or throws)', () => {
    const t = newToken();
    expect(sameToken(t, t)).toBe(true);
    for (const other of [undefined, '', 'x', t.slice(0, -1), `${t}x`, t.toUpperCase(), 'é'.repeat(43)])
      expect(sameToken(other, t)).toBe(false);
  });

  it('reads a Bearer header and nothing else', () => {
    expect(bearerOf('Bearer abc_-9')).toBe('abc_-9');
    expect(bearerOf('Bearer  abc ')).toBe('abc');
    expect(bearerOf('bearer abc')).toBe('abc'); // the scheme's case does not matter (RFC 9110)
    expect(bearerOf('BEARER abc')).toBe('abc');
    for (const h of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'abc', 'Bearer a b', 'Bearer a\nb'])
      expect(bearerOf(h)).toBeUndefined();
  });

  it('media tokens lapse after an hour unused, stay alive while used, and are capped in number', () => {
    let now = 0;
    const tokens = new MediaTokens(60 * 60 * 1000, 3, () => now);
    const a = tokens.mint();
    expect(a).toMatchObject({ idleSeconds: 3600 });
    now += 50 * 60 * 1000;
    expect(tokens.use(a.token)).toBe(true); // a preview being watched
    now += 50 * 60 * 1000;
    expect(tokens.use(a.token)).toBe(true);
    now += 61 * 60 * 1000;
    expect(tokens.use(a.token)).toBe(false); // forgotten
    const [b, c, d, e] = [tokens.mint(), tokens.mint(), tokens.mint(), tokens.mint()];
    expect(tokens.use(b.token)).toBe(false); // the oldest made room
    for (const t of [c, d, e]) expect(tokens.use(t.token)).toBe(true);
    expect(tokens.use(undefined)).toBe(false);
    expect(tokens.use('')).toBe(false);
  });
});

describe('serve: routes and statuses', () => {
  it('knows a path spelled the one way it is served from one spelled otherwise', () => {
    for (const ok of ['/', '/api/appInfo', '/media/1/dub?mt=x%2F', '/assets/index-1.js', '/session'])
      expect(canonicalPath(ok), ok).toBe(true);
    for (const bad of [
      '/%61pi/x',
      '/api/%2e',
      '//api/x',
      '/./api',
      '/a/../api',
      '/api;x',
      '/a\\b',
      'api',
      '/api//x',
    ])
      expect(canonicalPath(bad), bad).toBe(false);
  });

  it('gives every contract error an HTTP status that fits', () => {
    for (const code of ERROR_CODES) expect(STATUS_OF[code], code).toBeGreaterThanOrEqual(400);
    expect(STATUS_OF).toMatchObject({
      'bad-request': 400,
      auth: 401,
      credits: 402,
      'not-found': 404,
      conflict: 409,
      busy: 409,
      'too-large': 413,
      internal: 500,
    });
  });
});

describe('serve: names of staged files', () => {
  it('keeps names, unicode included, and makes reserved characters harmless', () => {
    expect(stagedName('clip.mp4')).toBe('clip.mp4');
    expect(stagedName('Résumé — 日本語 🎬.mp4')).toBe('Résumé — 日本語 🎬.mp4');
    expect(stagedName('Cafe\u0301.mp4')).toBe('Café.mp4'); // one normal form
    expect(stagedName('a:b*c?.mp4')).toBe('a_b_c_.mp4');
    expect(stagedName('movie.mp4. ')).toBe('movie.mp4');
    expect(stagedName('CON.mp4')).toBe('_CON.mp4');
    expect(stagedName('a..b.mp4')).toBe('a..b.mp4');
  });

  it('refuses names that try to be paths, hide characters or overflow a file system', () => {
    const hostile = [
      undefined,
      42,
      '',
      '   ',
      '.',
      '..',
      '../x.mp4',
      'x/../../y',
      '..\\x.mp4',
      '/abs.mp4',
      'a\0b',
      'tab\there',
      'del\x7f',
      'gpj.\u202emp4',
      '\u2066x.mp4',
      'ü'.repeat(128),
      '...',
    ];
    for (const name of hostile)
      expect(() => stagedName(name), JSON.stringify(name)).toThrow(
        expect.objectContaining({ code: 'bad-request', field: 'name' }),
      );
  });
});
