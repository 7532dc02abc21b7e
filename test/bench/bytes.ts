/** Bytes uploaded per file: 1 file to 5 languages, with upload once and without. */
import { mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openDubdesk } from '../../electron/engine/index';
import { videoMp4 } from '../helpers/media';
import { ratioOf, round, type Figure } from './figures';
import { API_KEY, benchSandbox, type BenchSandbox } from './sandbox';

const LANGS = ['es', 'fr', 'de', 'it', 'pt'];

async function sentFor(sb: BenchSandbox, work: string, file: string, uploadOnce: boolean): Promise<number> {
  const before = (await sb.state()).ingest.fileBytes;
  const home = mkdtempSync(join(work, 'bytes-'));
  const host = openDubdesk({ home, face: 'cli', service: { baseUrl: sb.baseUrl, apiKey: API_KEY } });
  // Upload once is about the file: the sound alone (the default for a video) would send a fraction of it.
  await host.api.add({
    inputs: [file],
    to: LANGS,
    uploadOnce,
    send: 'file',
    outDir: join(home, 'out'),
    force: true,
  });
  const outcome = await host.run({ untilDone: true, concurrency: 5, pollIntervalMs: 200 });
  await host.close();
  if (outcome !== 'done') throw new Error(`run ended ${outcome}`);
  return (await sb.state()).ingest.fileBytes - before;
}

export async function bytesFigures(work: string): Promise<Figure[]> {
  const sb = await benchSandbox({ pipelineSeconds: 0.5, balance: 1e9, ffmpeg: false });
  try {
    const file = videoMp4(3);
    const size = statSync(file).size;
    const once = (await sentFor(sb, work, file, true)) / (size * LANGS.length);
    const each = (await sentFor(sb, work, file, false)) / (size * LANGS.length);
    return [
      {
        name: 'bytes uploaded per file: 1 file to 5 languages, sent / (size x 5)',
        measured: round(once),
        unit: 'x',
        target: '0.2 (upload once)',
        reference: `without upload once: ${round(each)}`,
        ratio: ratioOf(once, each),
        pass: once <= 0.2 + 1e-9,
      },
    ];
  } finally {
    await sb.stop();
  }
}
