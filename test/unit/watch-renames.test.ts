/**
 * The words for a rename and for a new version in a watched folder (issue 31.12), the same in the Files
 * dialog and `watch --files`.
 */
import { describe, expect, it } from 'vitest';
import type { WatchFile } from '../../shared/contract/watch';
import { earlierVersionWords, newerVersion, renamedFrom, renamedTo } from '../../shared/watch-renames';

const file = (id: number, name: string, over: Partial<WatchFile>): WatchFile => ({
  id,
  folderId: 1,
  path: `/in/${name}`,
  name,
  version: 1,
  status: 'done',
  problem: null,
  jobIds: [],
  bytes: 1,
  durationSeconds: 1,
  credits: 1,
  duplicateOf: null,
  movedTo: null,
  gone: false,
  firstSeenAt: '2026-01-01T00:00:00Z',
  takenAt: null,
  nextCheckAt: null,
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});

describe('a rename in a watched folder', () => {
  const draft = file(1, 'draft.mp4', { gone: true, jobIds: [1, 2] });
  const final = file(2, 'final.mp4', { status: 'duplicate', duplicateOf: '/in/draft.mp4', jobIds: [2, 1] });
  const copy = file(3, 'copy.mp4', { status: 'duplicate', duplicateOf: '/in/draft.mp4', jobIds: [3, 4] });

  it('is told on both names: the new one was renamed from the old, the old one renamed to the new', () => {
    const all = [draft, final, copy];
    expect(renamedFrom(final, all)?.name).toBe('draft.mp4');
    expect(renamedTo(draft, all)?.name).toBe('final.mp4');
  });

  it('is not a copy with jobs of its own, nor a duplicate of a file still there', () => {
    expect(renamedFrom(copy, [draft, copy])).toBeNull();
    expect(renamedTo(draft, [draft, copy])).toBeNull();
    expect(renamedFrom(final, [{ ...draft, gone: false }, final])).toBeNull();
  });
});

describe('a file changed in place', () => {
  const first = file(1, 'talk.mp3', { jobIds: [1, 2] });
  const second = file(2, 'talk.mp3', { version: 2, jobIds: [3, 4] });

  it('its earlier version is told apart from the file now there, which is no earlier version', () => {
    expect(newerVersion(first, [second, first])?.id).toBe(2);
    expect(newerVersion(second, [second, first])).toBeNull();
    expect(newerVersion(first, [first, file(3, 'other.mp3', { version: 2 })])).toBeNull();
  });

  it('says where its results went, when it has any', () => {
    expect(earlierVersionWords(first)).toBe('earlier version, replaced: its results are in previous/');
    expect(earlierVersionWords({ ...first, status: 'failed' })).toBe('earlier version, replaced');
  });
});
