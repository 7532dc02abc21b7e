import { z } from 'zod';
import { API_GENERATIONS, OutputSelectionSchema } from './domain';

/**
 * What a face (CLI, IPC, web UI) may ask the engine to queue. Parsed at every boundary with this one
 * schema, so the desktop app and `serve` refuse exactly what the CLI refuses.
 */
export const AddRequestSchema = z.object({
  inputs: z
    .array(z.string().min(1, 'a source path or URL is empty'))
    .min(1, 'name at least one file, folder or URL'),
  to: z
    .array(z.string().trim().toLowerCase().min(1))
    .min(1, 'name at least one target language, e.g. --to es,fr'),
  from: z.string().trim().toLowerCase().min(1).default('auto'),
  studio: z.boolean().default(false),
  api: z.enum(API_GENERATIONS).default('v2'),
  outDir: z.string().min(1).optional(),
  outputs: OutputSelectionSchema.default('default'),
});
export type AddRequest = z.infer<typeof AddRequestSchema>;
export type AddRequestInput = z.input<typeof AddRequestSchema>;
