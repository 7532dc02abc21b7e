import { z } from 'zod';
import { ServiceAddressSchema } from './service-address';

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** Which face runs the UI. */
  shell: z.enum(['electron', 'web', 'cli']),
  /** The data folder (queue database, settings, logs). */
  home: z.string(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const ServiceModeSchema = z.enum(['sandbox', 'service']);
export type ServiceMode = z.infer<typeof ServiceModeSchema>;

export const AccountSchema = z.object({
  mode: ServiceModeSchema,
  baseUrl: z.string(),
  id: z.string(),
  name: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  /** Credits (1 credit = 1 second of dubbed output). */
  balance: z.number(),
  subscriptionStatus: z.string().nullable(),
  subscriptionPlan: z.string().nullable(),
  defaultDubLang: z.string(),
  createdAt: z.string(),
});
export type Account = z.infer<typeof AccountSchema>;

export const TestKeyRequestSchema = z
  .object({
    apiKey: z.string().trim().min(1, 'enter an API key').max(4096),
    /** The address to test the key against: the one the user sees, never one chosen behind their back. */
    baseUrl: ServiceAddressSchema,
  })
  .strict();
export type TestKeyRequest = z.input<typeof TestKeyRequestSchema>;

export const LanguageSchema = z.object({
  code: z.string(),
  name: z.string(),
  emoji: z.string(),
  /** Accepted by the legacy generation too. */
  legacy: z.boolean(),
});
export type Language = z.infer<typeof LanguageSchema>;

export const LanguagesSchema = z.object({
  /** Target languages (never `auto`), from the service's live list when it answers. */
  languages: z.array(LanguageSchema),
  /** Where the list came from: the service now, the cached copy, or the built-in list. */
  from: z.enum(['live', 'cache', 'fallback']),
});
export type Languages = z.infer<typeof LanguagesSchema>;
