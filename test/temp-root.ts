import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The run's temporary folders (homes, outputs, media fixtures, sandboxes: thousands a run) go under one
 * folder made for it, removed when the run ends. Left in /tmp they piled up run after run, and every later
 * run paid for them (a directory of 10,000 entries, ext4 scanning recently freed inodes on each new file).
 * Set before the test processes start, so they and every child they spawn inherit it. The media fixtures
 * (test/helpers/media.ts) are made once a run in a folder of it that every test process shares.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'dubdesk-tests-'));
  process.env.TMPDIR = root;
  process.env.DUBDESK_TEST_FIXTURES = join(root, 'fixtures');
  // The suite's world sends whole files unless a test says otherwise: the tests written for the whole-file
  // path compare what the service served byte for byte. The audio path's tests ask for it by name
  // (`send: 'audio'`, `--send audio`), and test/unit/send-default.test.ts checks that a user gets it unasked.
  process.env.DUBDESK_SEND = 'file';
  mkdirSync(process.env.DUBDESK_TEST_FIXTURES);
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
