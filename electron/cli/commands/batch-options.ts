import type { Command } from 'commander';
import { DubdeskError } from '../../../shared/contract/errors';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { checkDefaultAudio } from '../../../shared/contract/deliver';
import {
  PresetOptionsSchema,
  type Preset,
  type PresetOptions,
  type PresetOptionsInput,
} from '../../../shared/contract/presets';
import type { ApiGeneration, OutputNaming, OutputSelection, Send } from '../../../shared/contract/jobs';
import type { DeliverFlags } from '../deliver-options';
import type { AudioTrack } from '../../../shared/contract/audio-track';

/** What every batch says, whether added by hand or by a watched folder. */
export interface BatchFlags extends DeliverFlags {
  to?: string[];
  from: string;
  studio: boolean;
  api: ApiGeneration;
  out?: string;
  outputs: OutputSelection;
  naming: OutputNaming;
  /** Absent: the engine's choice (the sound alone where ffmpeg is found, or DUBDESK_SEND). */
  send?: Send;
  /** Absent: the first audio track. */
  audioTrack?: AudioTrack;
  /** A named preset: its options, then the flags given beside it. */
  preset?: string;
}

/** The flags of `add`, `dub` and `preset save`: a batch's options. */
export interface AddFlags extends BatchFlags {
  force: boolean;
  again: boolean;
  /** Absent: auto (on for big files going to several languages). */
  uploadOnce?: boolean;
  json?: boolean;
}

/** The flag of each batch option, by the option's name in the contract (`outDir` is `--out`). */
const FLAG_OF = {
  to: 'to',
  from: 'from',
  studio: 'studio',
  api: 'api',
  outDir: 'out',
  outputs: 'outputs',
  naming: 'naming',
  uploadOnce: 'uploadOnce',
  send: 'send',
  audioTrack: 'audioTrack',
  package: 'package',
  subtitles: 'subtitles',
  defaultAudio: 'defaultAudio',
  loudness: 'loudness',
} as const satisfies Partial<Record<keyof PresetOptionsInput, keyof AddFlags>>;

/**
 * The batch options the flags say: every one (defaults included), or with `onlyGiven` just those typed on
 * the command line, which win over a preset's.
 */
export function batchOptions(flags: AddFlags, cmd: Command, onlyGiven: boolean): Partial<PresetOptionsInput> {
  const out: Record<string, unknown> = {};
  for (const [option, flag] of Object.entries(FLAG_OF)) {
    const value = flags[flag];
    if (value === undefined) continue;
    if (onlyGiven && cmd.getOptionValueSource(flag) !== 'cli') continue;
    out[option] = value;
  }
  return out as Partial<PresetOptionsInput>;
}

/** The preset called `name` (any case), or a clear error naming the presets there are. */
export async function findPreset(api: DubdeskApi, name: string): Promise<Preset> {
  const { presets } = await api.listPresets();
  const found = presets.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());
  if (found) return found;
  throw new DubdeskError('not-found', `there is no preset called “${name}”`, {
    remedy: presets.length
      ? `The presets are: ${presets.map((p) => p.name).join(', ')}.`
      : 'Save one first: dubdesk preset save NAME --to es,fr …',
  });
}

/** A batch names its languages, or a preset that does: said before any file is read or the queue opened. */
export function requireLanguagesOrPreset(flags: Pick<AddFlags, 'to' | 'preset'>, cmd: Command): void {
  if (!flags.to && !flags.preset)
    cmd.error("error: required option '--to <langs>' not specified (or name a --preset)");
}

/** What a batch asks for: the preset's options with the flags given beside it on top, or the flags alone. */
export async function batchRequest(
  api: DubdeskApi,
  flags: AddFlags,
  cmd: Command,
): Promise<PresetOptionsInput> {
  let options: PresetOptions;
  if (flags.preset) {
    const preset = await findPreset(api, flags.preset);
    options = PresetOptionsSchema.parse({ ...preset.options, ...batchOptions(flags, cmd, true) });
  } else {
    requireLanguagesOrPreset(flags, cmd);
    options = PresetOptionsSchema.parse({
      ...batchOptions(flags, cmd, false),
      uploadOnce: flags.uploadOnce ?? 'auto',
    });
  }
  // What the flags alone can be refused for, refused before a file is read.
  checkDefaultAudio(options.to, options.defaultAudio);
  return options;
}
