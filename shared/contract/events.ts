import { z } from 'zod';
import { WhenDoneStateSchema } from '../when-done';
import { BatchTallySchema } from './batch-summary';
import { JobViewSchema } from './jobs';
import { PresetSchema } from './presets';
import { QueueTotalsSchema } from './queue';
import { SettingsSchema } from './settings';
import { WatchFolderSchema } from './watch';

/**
 * The one event stream. `seq` grows by one per event of a subscription, so a face can tell it missed some
 * (then it fetches what it shows again). Job events are throttled per job while bytes move.
 */
export const EngineEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('job'), seq: z.number().int(), job: JobViewSchema }),
  /** Many jobs changed at once (a large add, a bulk retry, a clear): fetch what you show again. */
  z.object({ type: z.literal('jobs-changed'), seq: z.number().int(), removed: z.array(z.number().int()) }),
  z.object({ type: z.literal('totals'), seq: z.number().int(), totals: QueueTotalsSchema }),
  z.object({ type: z.literal('settings'), seq: z.number().int(), settings: SettingsSchema }),
  z.object({ type: z.literal('watch-folder'), seq: z.number().int(), folder: WatchFolderSchema }),
  z.object({ type: z.literal('watch-folder-removed'), seq: z.number().int(), id: z.number().int() }),
  /** The named presets changed (saved or deleted here or by another process): every one, by name. */
  z.object({ type: z.literal('presets'), seq: z.number().int(), presets: z.array(PresetSchema) }),
  z.object({ type: z.literal('when-done'), seq: z.number().int(), state: WhenDoneStateSchema }),
  /** The queue drained with "notify" chosen: one notice per batch. */
  z.object({ type: z.literal('batch-done'), seq: z.number().int(), tally: BatchTallySchema }),
]);
export type EngineEvent = z.infer<typeof EngineEventSchema>;
/** An event before the stream numbers it. */
export type EngineEventBody = EngineEvent extends infer E
  ? E extends { seq: number }
    ? Omit<E, 'seq'>
    : never
  : never;
export type EventListener = (event: EngineEvent) => void;
