/**
 * ffmpeg 5.1 exits 0 when the trailer of an output cannot be written (a Matroska file with a subtitle stream,
 * on a full disk): runTool takes its words for the failure they are, so half a file is never taken for whole.
 * The real case, with the real ffmpeg on a real full disk, is test/integration/cli/package-disk-full.test.ts.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MediaToolError, runTool } from '../../electron/media-tools/run';
import { tempDir } from '../helpers/temp-dir';

/** A stand-in ffmpeg that says `words` on stderr and exits 0, as ffmpeg 5.1 did. */
function saying(words: string): string {
  const path = join(tempDir('fake-ffmpeg-'), 'ffmpeg');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "${words}" >&2\nexit 0\n`);
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(process.platform === 'win32')('an output ffmpeg could not finish, though it exits 0', () => {
  it('is a failure, with ENOSPC when the disk was full', async () => {
    const full = saying('Error writing trailer of /x/a.mkv.part: No space left on device');
    const e: unknown = await runTool(full, [], { timeoutMs: 10_000 }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(MediaToolError);
    expect(e).toMatchObject({ why: 'failed', code: 'ENOSPC' });
    expect((e as Error).message).toContain('No space left on device');
  });

  it('is a failure for any other reason too (a file that could not be closed)', async () => {
    const broken = saying('Error closing file /x/a.mkv.part: Input/output error');
    await expect(runTool(broken, [], { timeoutMs: 10_000 })).rejects.toMatchObject({ code: undefined });
  });

  it('a run that said nothing of the kind is not', async () => {
    const fine = saying('[matroska @ 0x1] Starting new cluster due to timestamp');
    await expect(runTool(fine, [], { timeoutMs: 10_000 })).resolves.toMatchObject({ stdout: '' });
  });
});
