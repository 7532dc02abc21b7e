import { dirname } from 'node:path';
import type { BatchRequest } from '../../../../shared/contract/batches';
import type { DeliverChoice } from '../../../../shared/contract/deliver';
import { nameFromUrl } from '../../../../shared/url-name';
import type { NewJob } from '../../db/jobs';
import type { Source } from './expand-inputs';
import type { SendChoice } from './send-plan';
import { takesPart } from './upload-once';
import { storedTrack } from '../../media/ffmpeg/track';

export interface FanOutOptions {
  /** Jobs remember the service they were made for. */
  service: string;
  /** The batch's output folder as a full path, or null: results beside their source. */
  outDir: string | null;
  /** Where relative paths start: the CLI's working folder; null for a face that has none. */
  cwd: string | null;
  watchFolderId?: number | null;
  /** What each file sends (send-plan.ts); a file missing from it sends the whole file. */
  sends?: ReadonlyMap<string, SendChoice>;
}

/** One job per source and target language, each with where its results go. */
export function fanOut(sources: readonly Source[], req: BatchRequest, opts: FanOutOptions): NewJob[] {
  const { outDir, cwd } = opts;
  const common = {
    source_lang: req.from,
    api: req.api,
    studio: req.studio ? 1 : 0,
    outputs_wanted: JSON.stringify(req.outputs),
    naming: req.naming,
    service: opts.service,
    watch_folder_id: opts.watchFolderId ?? null,
    deliver: JSON.stringify({
      package: req.package,
      subtitles: req.subtitles,
      defaultAudio: req.defaultAudio,
      loudness: req.loudness,
    } satisfies DeliverChoice),
  };
  // A link's results go to the chosen folder, else (CLI) the working folder; links without either were refused.
  const linkOut = outDir ?? cwd;
  const jobs: NewJob[] = [];
  for (const s of sources) {
    if ('url' in s) {
      if (linkOut === null) continue;
      const name = nameFromUrl(s.url);
      for (const lang of req.to)
        jobs.push({
          ...common,
          dest_lang: lang,
          source: s.url,
          source_kind: 'url',
          source_name: name,
          source_type: null,
          source_bytes: null,
          source_mtime: null,
          duration: null,
          out_dir: linkOut,
          upload_once: 0,
        });
      continue;
    }
    // What a file's jobs share is worked out once for its languages (one string, not one each).
    const sends = opts.sends?.get(s.path);
    const outOfFile = outDir ?? dirname(s.path);
    // Upload once pays off by the bytes that go up: with the sound alone, those of the sound.
    const uploadOnce = takesPart(req.uploadOnce, req.api, sends?.bytes ?? s.bytes, req.to.length) ? 1 : 0;
    for (const lang of req.to)
      jobs.push({
        ...common,
        dest_lang: lang,
        source: s.path,
        source_kind: 'file',
        source_name: s.name,
        source_type: s.mime,
        source_bytes: s.bytes,
        source_mtime: s.mtimeMs,
        // Known when probing read the whole file; else the batch's identify reads it.
        source_hash: s.sha256 ?? null,
        duration: s.durationSeconds,
        out_dir: outOfFile,
        upload_once: uploadOnce,
        send: sends?.what ?? 'file',
        // The track found (a language resolves to its number): the same track chosen twice is one dub.
        audio_track: storedTrack(sends?.track ?? 1),
      });
  }
  return jobs;
}
