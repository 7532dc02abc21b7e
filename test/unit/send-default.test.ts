import { describe, expect, it } from 'vitest';
import { sendOf } from '../../electron/engine/app/batches/send-plan';
import { BatchRequestSchema } from '../../shared/contract/batches';
import { WatchPresetSchema } from '../../shared/contract/watch';

describe('what is sent when a batch does not say', () => {
  it('is the sound alone for a user, whatever the test suite sets for itself', () => {
    expect(sendOf(undefined, {})).toBe('audio');
    expect(sendOf(undefined, { DUBDESK_SEND: 'FILE ' })).toBe('file');
    expect(sendOf(undefined, { DUBDESK_SEND: 'everything' })).toBe('audio');
    expect(sendOf('audio', { DUBDESK_SEND: 'file' })).toBe('audio');
    // A request and a preset that do not say leave it to the engine; one that says something else is refused.
    expect(BatchRequestSchema.parse({ inputs: ['a.mp4'], to: ['es'] }).send).toBeUndefined();
    expect(WatchPresetSchema.parse({ to: ['es'] }).send).toBeUndefined();
    expect(BatchRequestSchema.safeParse({ inputs: ['a.mp4'], to: ['es'], send: 'video' }).success).toBe(
      false,
    );
  });
});
