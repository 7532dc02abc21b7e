/** The words every face uses for a length and for upload-once (issue 31.5, 31.8), from shared/. */
import { describe, expect, it } from 'vitest';
import { uploadOnceWords } from '../../shared/file-share';
import { formatLength } from '../../shared/format';
import { creditsFor } from '../../shared/credits';

const MiB = 1024 * 1024;

describe('a length is the one billed', () => {
  it('45.035 s reads 0:46, as it costs 46 credits a language', () => {
    expect(formatLength(45.035)).toBe('0:46');
    expect(creditsFor(45.035, false)).toBe(46);
    expect(formatLength(45)).toBe('0:45');
    expect(formatLength(0.2)).toBe('0:01');
    expect(formatLength(3599.5)).toBe('1:00:00');
    expect(formatLength(3725)).toBe('1:02:05');
  });
});

describe('upload once, in words true of the batch', () => {
  const once = (files: number, outOf: number, bytesSaved = 390 * MiB) =>
    uploadOnceWords({ enabled: files > 0, bytesSaved, files, outOf });
  it('says how many of the files when not all are', () => {
    expect(once(1, 3)).toBe(
      '1 of 3 files is uploaded once for all its languages, 390 MiB less to send; the others are uploaded for each language.',
    );
    expect(once(2, 3)).toBe(
      '2 of 3 files are uploaded once for all their languages, 390 MiB less to send; the other is uploaded for each language.',
    );
  });
  it('says "each file" only when each is, and nothing when nothing is saved', () => {
    expect(once(3, 3)).toBe('each file is uploaded once for all its languages, 390 MiB less to send.');
    expect(once(1, 1)).toBe('the file is uploaded once for all its languages, 390 MiB less to send.');
    expect(once(0, 2)).toBeNull();
    expect(once(1, 1, 0)).toBeNull();
  });
});
