import { z } from 'zod';
import { AddRequestSchema, BatchRequestSchema, type AddRequestInput } from './batches';

/**
 * A named preset ("ES+FR studio, a folder per language"): the options of `add` as its own schema reads them,
 * without the sources. Built from that schema, so an option `add` learns is a preset's too.
 */
export const PresetOptionsSchema = BatchRequestSchema.omit({ inputs: true });
export type PresetOptions = z.output<typeof PresetOptionsSchema>;
export type PresetOptionsInput = z.input<typeof PresetOptionsSchema>;

/** What a preset may be called: what a person types, one line, no control characters. */
export const PresetNameSchema = z
  .string()
  .trim()
  .min(1, 'a preset needs a name')
  .max(80, 'a preset name is at most 80 characters')
  // eslint-disable-next-line no-control-regex
  .refine((n) => !/[\u0000-\u001f\u007f]/.test(n), { message: 'a preset name is one line of text' });

export const PresetSchema = z.object({
  name: z.string(),
  options: PresetOptionsSchema,
  /** ISO time of the last save. */
  updatedAt: z.string(),
});
export type Preset = z.infer<typeof PresetSchema>;

export const SavePresetSchema = z.object({ name: PresetNameSchema, options: PresetOptionsSchema }).strict();
export const PresetNameRequestSchema = z.object({ name: PresetNameSchema }).strict();
export const PresetListSchema = z.object({ presets: z.array(PresetSchema) });

/**
 * What a batch asks for with a preset: the preset's options, then every option given beside it (those win),
 * checked by `add`'s own schema. `given` holds only what the user set, never a default.
 */
export function withPreset(
  preset: PresetOptions | null,
  given: Partial<AddRequestInput> & Pick<AddRequestInput, 'inputs'>,
): z.output<typeof AddRequestSchema> {
  return AddRequestSchema.parse({ ...(preset ?? {}), ...given });
}
