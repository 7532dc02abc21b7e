import { describe, expect, it } from 'vitest';
import { runChaos } from '../../chaos/chaos';

describe('the long run, shortened (`npm run chaos` runs 40 jobs and 50 kills)', () => {
  it('every fault at once, runs killed at random, the clock jumping 3 h: each job done once, charged once', async () => {
    const report = await runChaos({ jobs: 12, kills: 8, seed: 11 });
    expect(report.problems).toEqual([]);
    expect(report.jobs).toBe(12);
    // Users' default: videos sent as their sound alone are in the run (a third of the videos).
    expect(report.soundAlone).toBeGreaterThan(0);
    // Kills land after job changes; the queue may be done before all eight have.
    expect(report.kills).toBeGreaterThanOrEqual(3);
    expect(report.charges).toBe(12);
    expect(report.requests).toBeGreaterThan(0);
  }, 300_000);
});
