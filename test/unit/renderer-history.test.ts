import { describe, expect, it } from 'vitest';
import { viewCount } from '../../renderer/src/store/derived';
import { filterFor, QUEUE_VIEWS, stateInView } from '../../renderer/src/store/views';
import { JobFilterSchema } from '../../shared/contract/jobs';
import { totals } from './desktop/fixtures';

describe('the History view', () => {
  it('asks the engine for the history (searchable), counted by the engine, and takes no live job in', () => {
    expect(QUEUE_VIEWS).toContain('history');
    const filter = filterFor('history', ' take 3 ');
    expect(JobFilterSchema.parse(filter)).toEqual({ history: true, search: 'take 3' });
    expect(filterFor('all', '')).toEqual({});
    // The sidebar's count: the engine's, not the live list's total.
    expect(viewCount(totals({ total: 40, history: 16 }), 'history')).toBe(16);
    expect(stateInView('history', 'completed')).toBe(false);
  });
});
