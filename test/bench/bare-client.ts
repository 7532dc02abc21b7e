/**
 * The reference of the overhead figure: what any client must do for a job, done by a bare one with Node's
 * own tools and nothing else. It reads and hashes the source (a file changed under its upload must not be
 * dubbed, issue 21), creates the dub with the file in a v2 multipart request, asks for the dub until it is
 * completed, and downloads what the engine downloads (the dubbed media and the subtitles) into files. No
 * queue, no records, no names checked, no log: the engine's bookkeeping is what the ratio shows.
 */
import { createHash } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

type Dub = { id: string; external_status_id: number; outputs: Record<string, { download_url: string }> };

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

/** Each file's job to `lang`, `concurrency` at a time (the engine's setting in the same run). */
export async function bareJobs(opts: {
  baseUrl: string;
  apiKey: string;
  files: readonly string[];
  lang: string;
  outDir: string;
  concurrency: number;
}): Promise<void> {
  const api = async (path: string, init: RequestInit = {}): Promise<Dub> => {
    const r = await fetch(`${opts.baseUrl}/api/v2${path}`, {
      ...init,
      headers: { apikey: opts.apiKey, ...(init.headers as Record<string, string>) },
    });
    if (!r.ok) throw new Error(`the bare client's ${path} answered ${r.status}`);
    return (await r.json()) as Dub;
  };
  const job = async (file: string) => {
    await sha256(file);
    const form = new FormData();
    form.set('dest_lang', opts.lang);
    form.set('file', await openAsBlob(file, { type: 'audio/mpeg' }), basename(file));
    let dub = await api('/dubs', { method: 'POST', body: form });
    while (dub.external_status_id !== 5) {
      if (dub.external_status_id === 4) throw new Error(`the bare client's dub ${dub.id} failed`);
      await sleep(20);
      dub = await api(`/dubs/${dub.id}`);
    }
    const media = ['translated_mp3', 'translated'].find((t) => t in dub.outputs);
    for (const type of [media, 'translated_subtitle']) {
      const link = type ? dub.outputs[type] : undefined;
      if (!link) throw new Error(`the bare client's dub ${dub.id} has no ${type ?? 'media'}`);
      const r = await fetch(link.download_url);
      await writeFile(join(opts.outDir, `${basename(file)}.${type}`), Buffer.from(await r.arrayBuffer()));
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < opts.files.length) await job(opts.files[next++] ?? '');
    }),
  );
}
