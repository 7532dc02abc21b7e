import { z } from 'zod';

/** A language as the service spells its codes: trimmed and lower-case (` ES ` is `es`). */
export const LanguageCodeSchema = z.string().trim().toLowerCase().min(1).max(16);

/**
 * A list of languages, each once, in the order first given. Normalised here, at the contract's edge, so
 * every count made from it (jobs, credits, a watched folder's spending per hour) counts a language once.
 */
export const languageListSchema = (opts: { min?: number; max?: number } = {}) =>
  z
    .array(LanguageCodeSchema)
    .min(opts.min ?? 0, 'name at least one target language')
    .max(opts.max ?? 100)
    .transform((codes) => [...new Set(codes)]);
