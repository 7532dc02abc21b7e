import bytes from 'bytes-iec';
import { InvalidArgumentError, Option } from 'commander';
import { MAX_RATE_BYTES, MIN_RATE_BYTES } from '../../shared/rates';
import { sinceTime } from '../../shared/contract/spending';
import { SendWindowSchema, type SendWindow } from '../../shared/schedule';
import { OUTPUT_TYPES, type OutputType } from '../../shared/api/common';
import { SendSchema, type OutputSelection } from '../../shared/contract/jobs';
import { AUDIO_TRACK_HELP, AudioTrackSchema, type AudioTrack } from '../../shared/contract/audio-track';

export function languageList(raw: string): string[] {
  const codes = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (codes.length === 0) throw new InvalidArgumentError('expected language codes, e.g. es,fr');
  return [...new Set(codes)];
}

export function outputSelection(raw: string): OutputSelection {
  const v = raw.trim().toLowerCase();
  if (v === 'all') return 'all';
  if (v === 'default') return 'default';
  const types = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !(OUTPUT_TYPES as readonly string[]).includes(t));
  if (unknown.length || types.length === 0) {
    throw new InvalidArgumentError(
      `unknown output type ${unknown.join(', ') || '(none)'}; choose from ${OUTPUT_TYPES.join(', ')}, or all`,
    );
  }
  return [...new Set(types)] as OutputType[];
}

/** `--send`: what goes to the service for a video (see SendSchema). */
export function sendOption(): Option {
  return new Option(
    '--send <what>',
    "audio: only a video's sound goes up, and each language's video is made here from your picture (needs ffmpeg; else the whole file goes); file: the whole file, as the service dubs it (default: audio, or DUBDESK_SEND)",
  ).choices(SendSchema.options);
}

/** `--audio-track N|LANG`: which of a source's audio tracks is dubbed (see AudioTrackSchema). */
export function audioTrackOption(): Option {
  return new Option(
    '--audio-track <track>',
    "which audio track to dub: its number among the file's audio tracks counting from 1 (2), its language (eng, en), or first (default: first)",
  ).argParser(audioTrack);
}

export function audioTrack(raw: string): AudioTrack {
  const parsed = AudioTrackSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? AUDIO_TRACK_HELP);
}

export function positiveInt(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

export function positiveSeconds(raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number of seconds above 0');
  return n;
}

export function jobId(raw: string): number {
  const n = Number(raw.replace(/^#/, ''));
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError('expected a job id (a number; see `dubdesk status`)');
  return n;
}

/** `5MiB`, `500KiB`, `2MB` (per second; `/s` may follow): a rate cap in bytes per second. */
export function byteRate(raw: string): number {
  const text = raw.trim().replace(/\s*\/\s*s(ec(ond)?)?$/i, '');
  const n = /^\d+(\.\d+)?\s*[a-z]+$/i.test(text) ? bytes.parse(text) : null;
  if (n === null || !Number.isFinite(n))
    throw new InvalidArgumentError('expected a rate such as 5MiB or 500KiB (bytes per second)');
  if (n < MIN_RATE_BYTES)
    throw new InvalidArgumentError(
      `a cap below ${MIN_RATE_BYTES / 1024}KiB per second would stall transfers`,
    );
  if (n > MAX_RATE_BYTES)
    throw new InvalidArgumentError(
      `a cap above ${MAX_RATE_BYTES / 1024 ** 3}GiB per second is past any line's speed (a typo?)`,
    );
  return Math.round(n);
}

/** `22:00-07:00`: when new work may be sent, local time. */
export function sendWindow(raw: string): SendWindow {
  const [from, to, ...rest] = raw.split(/\s*[-–]\s*/);
  const parsed = SendWindowSchema.safeParse({ from, to });
  if (rest.length || !parsed.success)
    throw new InvalidArgumentError(
      `expected two times of day such as 22:00-07:00${parsed.error ? ` (${parsed.error.issues[0]?.message})` : ''}`,
    );
  return parsed.data;
}

/** `--since 2026-11-01` (from that local midnight) or an ISO time. */
export function sinceDate(raw: string): string {
  if (Number.isNaN(sinceTime(raw))) throw new InvalidArgumentError('expected a date such as 2026-11-01');
  return raw.trim();
}
