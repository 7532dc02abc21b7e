import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BenchMediaArgs {
  /** The clip every file is made from. */
  source: string;
  jobs: number;
  batches: number;
  /** Where the files, outputs (and the engine's home) go (default: the system's temporary folder). */
  root?: string;
}

/**
 * Every batch's files, made before the first turn: `jobs` files a batch in a folder of its own, each its own
 * content (an ID3v1 tag with the side, batch and number), as a user's are. Byte copies of one file would be
 * dubbed once and linked: the figure would measure copies, not dubs.
 */
export function benchMedia(
  { source, jobs, batches, root }: BenchMediaArgs,
  side: string,
): { work: string; folder(b: number): string; files(b: number): string[]; outDir(b: number): string } {
  const work = mkdtempSync(join(root ?? tmpdir(), `dubdesk-bench-overhead-${side}-`));
  const clip = readFileSync(source);
  const folder = (b: number) => join(work, `media-${b}`);
  const files = (b: number) => Array.from({ length: jobs }, (_, i) => join(folder(b), `o-${i}.mp3`));
  for (let b = 0; b < batches; b++) {
    mkdirSync(folder(b));
    mkdirSync(join(work, `out-${b}`));
    files(b).forEach((file, i) => {
      const tag = Buffer.alloc(128);
      tag.write(`TAGoverhead ${side} ${b}-${i}`, 0, 'latin1');
      writeFileSync(file, Buffer.concat([clip, tag]));
    });
  }
  return { work, folder, files, outDir: (b) => join(work, `out-${b}`) };
}
