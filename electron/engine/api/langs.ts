import { z } from 'zod';
import { LangList } from '../../../shared/api/common';
import { TARGET_CODES } from '../../../shared/languages';
import { Http } from './http';
import { LANGS_LIMITS, type HttpLimits } from './limits';
import { serviceEndpoint } from './links';
import type { Secrets } from './scrub';

const CACHE_KEY = 'langs.cache';
const CACHE_TTL_MS = 24 * 3600_000;
/** A code is shown and sent back as `dest_lang`: only the shape of a language tag is kept. */
const CODE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;

export interface LanguageSet {
  codes: string[];
  from: 'live' | 'cache' | 'fallback';
}

/** `GET {base_url}/api/langs`: public, no key, and quick to give up (there is an offline fallback). */
export class LangsClient {
  private readonly http: Http;
  private readonly baseUrl: string;

  constructor(baseUrl: string, limits?: Partial<HttpLimits>, secrets?: Secrets) {
    this.http = new Http({ limits: { ...LANGS_LIMITS, ...limits }, secrets });
    this.baseUrl = baseUrl;
  }

  /** The target codes the service lists (`auto` and anything that is not a language tag left out). */
  async targetCodes(signal?: AbortSignal): Promise<string[]> {
    const list = await this.http.json(LangList, serviceEndpoint(this.baseUrl, 'api/langs'), { signal });
    return list.map((l) => l.code).filter((c) => c !== 'auto' && CODE.test(c));
  }
}

/** The live list from `/api/langs`, cached a day; the cache, then the spec's 92 codes, when offline. */
/** Where the list is cached between runs (the queue's settings table, in the engine). */
export interface LanguageCache {
  get(key: string): string | undefined;
  set(key: string, value: string | null): void;
}

export async function targetLanguages(
  store: LanguageCache,
  source: LangsClient | string,
  now = Date.now(),
): Promise<LanguageSet> {
  const cached = readCache(store);
  if (cached && now - cached.at < CACHE_TTL_MS) return { codes: cached.codes, from: 'cache' };
  try {
    const client = typeof source === 'string' ? new LangsClient(source) : source;
    const codes = await client.targetCodes();
    if (codes.length === 0) throw new Error('the service listed no languages');
    store.set(CACHE_KEY, JSON.stringify({ at: now, codes }));
    return { codes, from: 'live' };
  } catch {
    if (cached) return { codes: cached.codes, from: 'cache' };
    return { codes: [...TARGET_CODES], from: 'fallback' };
  }
}

const LangCache = z.object({ at: z.number(), codes: z.array(z.string()).min(1) });

function readCache(store: LanguageCache): z.infer<typeof LangCache> | null {
  const raw = store.get(CACHE_KEY);
  if (!raw) return null;
  try {
    const parsed = LangCache.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null; // a damaged cache is ignored
  } catch {
    return null;
  }
}
