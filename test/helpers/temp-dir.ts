import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the run's temporary root (test/temp-root.ts removes it when the run ends). */
export function tempDir(prefix = 'dubdesk-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
