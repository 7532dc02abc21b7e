/**
 * The bare client's side of the overhead figure, in a process of its own: the same number of new files a
 * batch as the engine's, through the same sandbox, each batch when the parent says (see turns.ts).
 */
import { rmSync } from 'node:fs';
import { bareJobs } from './bare-client';
import { benchMedia, type BenchMediaArgs } from './overhead-media';
import { serveTurns } from './turns';

const args = JSON.parse(process.argv[2] ?? '{}') as BenchMediaArgs & { baseUrl: string; apiKey: string };
const media = benchMedia(args, 'bare');

serveTurns({
  async prepare() {},
  async run(b) {
    const files = media.files(b);
    await bareJobs({ ...args, files, lang: 'es', outDir: media.outDir(b), concurrency: 4 });
    return {};
  },
  async close() {
    rmSync(media.work, { recursive: true, force: true });
  },
});
