import { z } from 'zod';
import { ApiGenerationSchema, OutputSelectionSchema } from '../../../../shared/contract/jobs';
import {
  BudgetSchema,
  DEFAULT_HISTORY_DAYS,
  MAX_CONCURRENCY,
  MAX_HISTORY_DAYS,
  RateSchema,
  type Settings,
  type SettingsPatch,
} from '../../../../shared/contract/settings';
import { SendWindowSchema } from '../../../../shared/schedule';
import type { JobStore } from '../../db/jobs';

export const APP_SETTINGS_KEY = 'app.settings';
const KEY = APP_SETTINGS_KEY;
const Lang = z.string().min(1).max(16);

/** The settings kept in the queue's database (the service's are in `service.json` and the key store). */
const AppSettings = z.object({
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).catch(2),
  pollIntervalSeconds: z.number().min(0.05).max(600).catch(3),
  defaults: z
    .object({
      languages: z.array(Lang).catch([]),
      from: Lang.catch('auto'),
      studio: z.boolean().catch(false),
      api: ApiGenerationSchema.catch('v2'),
      outputs: OutputSelectionSchema.catch('default'),
      outDir: z.string().nullable().catch(null),
      uploadOnce: z.union([z.boolean(), z.literal('auto')]).catch('auto'),
    })
    .catch({
      languages: [],
      from: 'auto',
      studio: false,
      api: 'v2',
      outputs: 'default',
      outDir: null,
      uploadOnce: 'auto',
    }),
  /** Each face's last "Save to" (see Settings.lastOutDir), by the face's name. */
  lastOutDirs: z.record(z.string(), z.string().max(4096)).catch({}),
  favouriteLanguages: z.array(Lang).catch([]),
  recentLanguages: z.array(Lang).catch([]),
  lastBatchLanguages: z.array(Lang).catch([]),
  notifyWhenDone: z.boolean().catch(true),
  historyAfterDays: z.number().int().min(1).max(MAX_HISTORY_DAYS).catch(DEFAULT_HISTORY_DAYS),
  maxUploadRate: RateSchema.nullable().catch(null),
  maxDownloadRate: RateSchema.nullable().catch(null),
  sendWindow: SendWindowSchema.nullable().catch(null),
  monthlyBudget: BudgetSchema.nullable().catch(null),
});
export type AppSettings = z.infer<typeof AppSettings>;

/** Read with every field defaulted: a damaged or older value never stops the app, it falls back per field. */
export function readAppSettings(store: JobStore): AppSettings {
  let raw: unknown = {};
  try {
    raw = JSON.parse(store.settings.get(KEY) ?? '{}');
  } catch {
    /* damaged: defaults */
  }
  return AppSettings.parse(raw ?? {});
}

export function writeAppSettings(
  store: JobStore,
  patch: Omit<SettingsPatch, 'service'>,
  face: string,
): AppSettings {
  const now = readAppSettings(store);
  // A default folder chosen in the settings is what every face starts from again.
  const newDefault = patch.defaults?.outDir !== undefined;
  const lastOutDirs = newDefault ? {} : { ...now.lastOutDirs };
  if (patch.lastOutDir !== undefined) lastOutDirs[face] = patch.lastOutDir;
  const next: AppSettings = {
    ...now,
    lastOutDirs,
    ...(patch.concurrency !== undefined ? { concurrency: patch.concurrency } : {}),
    ...(patch.pollIntervalSeconds !== undefined ? { pollIntervalSeconds: patch.pollIntervalSeconds } : {}),
    ...(patch.favouriteLanguages !== undefined ? { favouriteLanguages: patch.favouriteLanguages } : {}),
    ...(patch.notifyWhenDone !== undefined ? { notifyWhenDone: patch.notifyWhenDone } : {}),
    ...(patch.historyAfterDays !== undefined ? { historyAfterDays: patch.historyAfterDays } : {}),
    ...(patch.maxUploadRate !== undefined ? { maxUploadRate: patch.maxUploadRate } : {}),
    ...(patch.maxDownloadRate !== undefined ? { maxDownloadRate: patch.maxDownloadRate } : {}),
    ...(patch.sendWindow !== undefined ? { sendWindow: patch.sendWindow } : {}),
    ...(patch.monthlyBudget !== undefined ? { monthlyBudget: patch.monthlyBudget } : {}),
    defaults: { ...now.defaults, ...(patch.defaults as Partial<AppSettings['defaults']> | undefined) },
  };
  store.settings.set(KEY, JSON.stringify(next));
  return next;
}

/** After a batch: its languages become the last batch's and move to the front of the recent ones. */
export function rememberBatch(store: JobStore, languages: readonly string[]): void {
  const now = readAppSettings(store);
  const recent = [...languages, ...now.recentLanguages.filter((l) => !languages.includes(l))].slice(0, 12);
  store.settings.set(
    KEY,
    JSON.stringify({ ...now, recentLanguages: recent, lastBatchLanguages: [...languages] }),
  );
}

export function settingsView(app: AppSettings, service: Settings['service'], face: string): Settings {
  const { lastOutDirs, ...rest } = app;
  return { service, ...rest, lastOutDir: lastOutDirs[face] ?? null };
}
