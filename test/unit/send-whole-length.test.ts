/**
 * A job planned to send its sound (estimated at the sound's length) that has to send the whole file after
 * all (no ffmpeg any more, a sound ffmpeg cannot take): it is billed as the whole file, so its length, and
 * with it the queue's figures, become the file's where that is longer. Never an estimate under the charge.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { enqueue, transition } from '../../electron/engine/jobs/life';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';
import { storeAt } from '../helpers/store';

it.each([
  [6, 12, 12],
  [6, 5.5, 6],
  [6, null, 6],
])('a job of %s s sending the whole file of %s s is then %s s long', (sound, whole, after) => {
  const s = storeAt(join(tempDir(), 'q.db'));
  enqueue(s, newJob('/v/chapters.mp4', { duration: sound, send: 'audio' }), null);
  const [claim] = s.leases.claim('submit', 1, 'svc');
  const guard = { token: claim?.token ?? '' };
  transition(s, 1, guard, { type: 'begin-upload' });
  transition(s, 1, guard, { type: 'send-whole', why: 'no ffmpeg found', seconds: whole });
  expect(s.reads.get(1)).toMatchObject({ send: 'file', duration: after });
});
