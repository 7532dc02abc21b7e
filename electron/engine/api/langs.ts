import { z } from 'zod';
import { LangList } from '../../../shared/api/common';
import { TARGET_CODES } from '../../../shared/languages';
import type { JobStore } from '../db/jobs';
import { Http } from './http';

const CACHE_KEY = 'langs.cache';
const CACHE_TTL_MS = 24 * 3600_000;

export interface LanguageSet {
  codes: string[];
  from: 'live' | 'cache' | 'fallback';
}

const http = new Http({ timeoutMs: 10_000 });

/** The live list from `/api/langs`, cached a day; the cache, then the spec's 92 codes, when offline. */
export async function targetLanguages(
  store: JobStore,
  baseUrl: string,
  now = Date.now(),
): Promise<LanguageSet> {
  const cached = readCache(store);
  if (cached && now - cached.at < CACHE_TTL_MS) return { codes: cached.codes, from: 'cache' };
  try {
    const list = await http.json(LangList, `${baseUrl.replace(/\/+$/, '')}/api/langs`);
    const codes = list.map((l) => l.code).filter((c) => c !== 'auto');
    store.setSetting(CACHE_KEY, JSON.stringify({ at: now, codes }));
    return { codes, from: 'live' };
  } catch {
    if (cached) return { codes: cached.codes, from: 'cache' };
    return { codes: [...TARGET_CODES], from: 'fallback' };
  }
}

const LangCache = z.object({ at: z.number(), codes: z.array(z.string()).min(1) });

function readCache(store: JobStore): z.infer<typeof LangCache> | null {
  const raw = store.setting(CACHE_KEY);
  if (!raw) return null;
  try {
    const parsed = LangCache.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null; // a damaged cache is ignored
  } catch {
    return null;
  }
}
