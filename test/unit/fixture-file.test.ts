/**
 * The test processes of a run share one folder of media fixtures, and two that ask for the same one at once
 * both make it. The copy a process was given must stay that file: a fixture replaced under a test (a new
 * modification time, the same bytes) is a source "changed since it was added" to a job queued before, which
 * then waits and sends it again (the contract suite saw a job go uploading, queued, uploading).
 */
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishFixture, writeFixture } from '../helpers/fixture-file';
import { tempDir } from '../helpers/temp-dir';

/** A finished copy as a process leaves it beside the fixture; `later`: written a minute after the first. */
function finishedCopy(dir: string, name: string, text: string, later = true): string {
  const part = join(dir, `.${name}.part`);
  writeFileSync(part, text);
  const at = new Date(Date.now() + (later ? 60_000 : 0));
  utimesSync(part, at, at);
  return part;
}

describe('a media fixture made by two test processes at once', () => {
  it('the first copy put in place stays: the second is dropped, not moved over it', () => {
    const dir = tempDir('fixture-');
    const path = join(dir, 'contract-b.mp3');
    publishFixture(finishedCopy(dir, 'first', 'the first copy', false), path);
    const given = statSync(path);
    const second = finishedCopy(dir, 'second', 'the second copy');
    publishFixture(second, path);
    const now = statSync(path);
    expect([now.ino, now.mtimeMs]).toEqual([given.ino, given.mtimeMs]);
    expect(readFileSync(path, 'utf8')).toBe('the first copy');
    expect(existsSync(second)).toBe(false); // nothing left behind
  });

  it('a small file written once is not written again over a copy already there', () => {
    const dir = tempDir('fixture-');
    const path = join(dir, 'chapters.txt');
    writeFixture(path, 'first');
    const given = statSync(path);
    publishFixture(finishedCopy(dir, 'chapters.txt', 'second'), path);
    writeFixture(path, 'third');
    expect(statSync(path).ino).toBe(given.ino);
    expect(readFileSync(path, 'utf8')).toBe('first');
  });
});
