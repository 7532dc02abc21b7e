/**
 * A job's one number (issue 31.6): the phases are parts of one 0..100, and what a job has shown it never
 * takes back while it is unfinished, not even when its upload is sent again from the start.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobViews } from '../../electron/engine/app/queue/job-views';
import { TransferMeters } from '../../electron/engine/app/queue/meters';
import { JobStore, type JobRow } from '../../electron/engine/db/jobs';
import { openDatabase } from '../../electron/engine/db/open';
import { enqueue } from '../../electron/engine/jobs/life';
import { jobProgress } from '../../shared/progress';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';

describe('one number per job', () => {
  it('places each phase after the one before', () => {
    const steps = [
      jobProgress('queued', 'submit', null),
      jobProgress('uploading', 'submit', 50),
      jobProgress('uploading', 'submit', 100),
      jobProgress('submitted', 'track', 0),
      jobProgress('processing', 'track', 73),
      jobProgress('processing', 'track', 100),
      jobProgress('downloading', 'fetch', 0),
      jobProgress('downloading', 'fetch', 72),
      jobProgress('completed', 'done', 0),
    ];
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    expect(steps[0]).toBe(0);
    expect(steps.at(-1)).toBe(100);
    // Paused or failed, a job stays where its step put it.
    expect(jobProgress('paused', 'track', 73)).toBe(jobProgress('processing', 'track', 73));
    expect(jobProgress('paused', 'fetch', 0)).toBe(jobProgress('downloading', 'fetch', 0));
  });

  it('never goes back while the job is unfinished: an upload sent again keeps the number it reached', () => {
    const store = new JobStore(openDatabase(join(tempDir(), 'q.db')));
    const meters = new TransferMeters();
    const views = new JobViews(store, meters, () => 'svc');
    const id = enqueue(store, newJob('/v/a.mp4'), null);
    const row = store.reads.get(id) as JobRow;
    const at = (patch: Partial<JobRow>) => views.view({ ...row, ...patch }).progress;

    meters.update(id, 60, 100, 1000);
    const uploaded = at({ state: 'uploading', step: 'submit' });
    expect(uploaded).toBeGreaterThan(0);
    // The upload was cut: the job waits, queued, then sends the file again from its start.
    meters.forget(id);
    expect(at({ state: 'queued', step: 'submit', waiting: 'connection reset' })).toBe(uploaded);
    meters.update(id, 10, 100, 2000);
    expect(at({ state: 'uploading', step: 'submit' })).toBe(uploaded);
    const dubbing = at({ state: 'processing', step: 'track', progress: 50 });
    expect(dubbing).toBeGreaterThan(uploaded);
    // A poll that saw the dub not completed after all: back to processing, not back in number.
    expect(at({ state: 'processing', step: 'track', progress: 10 })).toBe(dubbing);
    expect(at({ state: 'completed', step: 'done' })).toBe(100);
  });
});
