import type { NewJob } from '../../electron/engine/db/jobs';

/** A queued job as the store takes it: a 3-second MP4 to Spanish on service `svc`; `over` changes any field. */
export const newJob = (source: string, over: Partial<NewJob> = {}): NewJob => ({
  source,
  source_kind: 'file',
  source_name: source,
  source_type: 'video/mp4',
  source_bytes: 10,
  source_mtime: 1,
  duration: 3,
  dest_lang: 'es',
  source_lang: 'auto',
  api: 'v2',
  studio: 0,
  out_dir: '/tmp',
  outputs_wanted: '"default"',
  naming: 'suffix',
  service: 'svc',
  watch_folder_id: null,
  upload_once: 0,
  ...over,
});
