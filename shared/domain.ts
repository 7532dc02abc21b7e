import { z } from 'zod';
import { OUTPUT_TYPES, type OutputType } from './api/common';

export const API_GENERATIONS = ['v2', 'v1', 'legacy'] as const;
export type ApiGeneration = (typeof API_GENERATIONS)[number];

/** What a user sees. Terminal states are exactly completed, failed and canceled. */
export const JOB_STATES = [
  'queued',
  'uploading',
  'submitted',
  'processing',
  'downloading',
  'completed',
  'failed',
  'canceled',
  'paused',
] as const;
export type JobState = (typeof JOB_STATES)[number];
export const TERMINAL_STATES: readonly JobState[] = ['completed', 'failed', 'canceled'];
export const isTerminal = (s: JobState): boolean => TERMINAL_STATES.includes(s);

export type OutputSelection = OutputType[] | 'default' | 'all';
export const OutputSelectionSchema = z.union([
  z.literal('default'),
  z.literal('all'),
  z.array(z.enum(OUTPUT_TYPES)).min(1),
]);

export interface JobOutput {
  type: OutputType;
  path: string;
  bytes: number;
}

/** A job as the UI and the CLI see it (never the API key, never a signed link). */
export interface JobView {
  id: number;
  source: string;
  sourceName: string;
  destLang: string;
  sourceLang: string;
  api: ApiGeneration;
  studio: boolean;
  state: JobState;
  remoteId: string | null;
  /** 0..100 for the current phase: upload, remote processing, or download. */
  progress: number;
  /** Why a live job is waiting (network down, retry scheduled, out of credits); null otherwise. */
  waiting: string | null;
  error: string | null;
  durationSeconds: number | null;
  estimatedCredits: number | null;
  measuredDuration: number | null;
  creditsCharged: number | null;
  outDir: string;
  outputs: JobOutput[];
  createdAt: string;
  updatedAt: string;
  /** Transfer speed and time left while uploading or downloading; null otherwise. */
  bytesPerSecond: number | null;
  etaSeconds: number | null;
}
