import { execFileSync } from 'node:child_process';

/** A media file's duration in seconds as ffprobe reads it: the test's own measure, not the engine's. */
export function ffprobeSeconds(path: string): number {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'default=noprint_wrappers=1:nokey=1',
    path,
  ]);
  return Number(out.toString().trim());
}
