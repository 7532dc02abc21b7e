import { describe, expect, it } from 'vitest';
import { viewCount } from '../../renderer/src/store/derived';
import { filterFor, QUEUE_VIEWS, stateInView } from '../../renderer/src/store/views';
import { JobFilterSchema } from '../../shared/contract/jobs';

describe('the History view', () => {
  it('asks the engine for the history (searchable), uncounted, and takes no live job in', () => {
    expect(QUEUE_VIEWS).toContain('history');
    const filter = filterFor('history', ' take 3 ');
    expect(JobFilterSchema.parse(filter)).toEqual({ history: true, search: 'take 3' });
    expect(filterFor('all', '')).toEqual({});
    expect(viewCount(null, 'history')).toBeNull();
    expect(stateInView('history', 'completed')).toBe(false);
  });
});
