/**
 * The results journal (results.jsonl beside the database) as a long-lived process reads it: serve, the
 * desktop engine or a watcher keeps one open for hours while command lines in other terminals save results
 * and append their lines. What it answers must include those lines, not only what the file held when it
 * first read it; a journal replaced or cut shorter is read whole again.
 */
import { appendFileSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256OfFile } from '../../../electron/engine/db/content-hashes';
import { ResultsJournal } from '../../../electron/engine/db/results-journal';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

/** `dubdesk dub` in another process: returns the result it saved. */
async function dubbedElsewhere(home: string, out: string, name: string): Promise<string> {
  const r = await runCli(['dub', audioMp3(1, name), '--to', 'es', '--out', out], envFor(sb, home));
  expect(r.code, r.stderr).toBe(0);
  const stem = name.replace(/\.mp3$/, '');
  const result = readdirSync(out).find((f) => f.startsWith(`${stem}.es.`));
  if (!result) throw new Error(`no result of ${name} in ${out}: ${readdirSync(out).join(', ')}`);
  return join(out, result);
}

const hashOf = (path: string) => sha256OfFile(path, statSync(path).size);

describe('a long-lived process and results saved by another', () => {
  it('knows a result another process saved after its first read, by path and by content', async () => {
    const work = tempDir('dubdesk-journal-');
    const home = join(work, 'home');
    const out = join(work, 'résultats');
    const first = await dubbedElsewhere(home, out, 'journal-first.mp3');
    // The window's engine: it reads the journal once a file is added or a folder watched.
    const journal = ResultsJournal.besideDatabase(join(home, 'dubdesk.db'));
    expect(journal.savedAmong([first])).toEqual(new Set([first]));

    const second = await dubbedElsewhere(home, out, 'journal-second.mp3');
    expect(journal.savedAmong([first, second])).toEqual(new Set([first, second]));
    const content = await hashOf(second);
    expect(journal.withContents([content])).toEqual(new Map([[content, second]]));
  });

  it('reads a line only once it is whole, and reads a replaced or shortened journal whole again', async () => {
    const work = tempDir('dubdesk-journal-');
    const home = join(work, 'home');
    const out = join(work, 'out');
    const first = await dubbedElsewhere(home, out, 'journal-a.mp3');
    const second = await dubbedElsewhere(home, out, 'journal-b.mp3');
    const file = join(home, 'results.jsonl');
    const journal = ResultsJournal.besideDatabase(join(home, 'dubdesk.db'));
    expect(journal.savedAmong([first, second]).size).toBe(2);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const secondLine = lines.find((l) => l.includes('journal-b')) ?? '';

    // Another process compacts it (a new file renamed over it) without the first result.
    writeFileSync(`${file}.part`, `${secondLine}\n`);
    renameSync(`${file}.part`, file);
    expect(journal.savedAmong([first, second])).toEqual(new Set([second]));

    // Half a line (another process is writing it): not read yet, nor lost once it is whole.
    const firstLine = lines.find((l) => l.includes('journal-a')) ?? '';
    appendFileSync(file, firstLine.slice(0, 20));
    expect(journal.savedAmong([first, second])).toEqual(new Set([second]));
    appendFileSync(file, `${firstLine.slice(20)}\n`);
    expect(journal.savedAmong([first, second])).toEqual(new Set([first, second]));

    // Cut shorter in place (truncated, same file): read whole again.
    writeFileSync(file, `${firstLine}\n`);
    expect(journal.savedAmong([first, second])).toEqual(new Set([first]));
  });
});
