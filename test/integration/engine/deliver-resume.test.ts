import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { talkVideo } from '../../helpers/deliver-media';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { ffprobeJson, videoMd5 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

/** The queue's own database, as a run that died would have left it. */
function edit(home: string, sql: string): void {
  const db = new Database(join(home, 'dubdesk.db'));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe('what is handed on survives a run that stops in the middle, and is never paid for', () => {
  it('a package a stopped run was making (its .part half written) and a QC not recorded are done by the next run', async () => {
    const work = tempDir('dubdesk-deliver-resume-');
    const home = join(work, 'home');
    const source = join(work, 'lecture.mp4');
    copyFileSync(talkVideo(8), source);
    const first = engineFor(sb, home);
    await first.api.add({ inputs: [source], to: ['es', 'fr'], package: 'mkv', subtitles: ['vtt', 'srt'] });
    expect(await first.run(quickRun())).toBe('done');
    await first.close();
    const charged = sb.state.ledger.length;
    const pkg = join(work, 'lecture.multi.mkv');
    expect(existsSync(pkg)).toBe(true);

    // The run died while ffmpeg wrote the package and before the French QC was recorded.
    rmSync(pkg);
    writeFileSync(`${pkg}.part`, 'half a matroska file');
    edit(
      home,
      `UPDATE packages SET state = 'making';
       UPDATE jobs SET qc = NULL WHERE dest_lang = 'fr';`,
    );

    const second = engineFor(sb, home);
    try {
      expect(await second.run(quickRun())).toBe('done');
      expect(existsSync(`${pkg}.part`)).toBe(false);
      expect(videoMd5(pkg)).toBe(videoMd5(source));
      expect(ffprobeJson(pkg).streams.filter((s) => s.codec_type === 'audio')).toHaveLength(3);
      const jobs = await allJobs(second.api);
      expect(jobs.map((j) => j.qc?.verdict)).toEqual(['pass', 'pass']);
      // Its SRT was not made twice (no `(2)`), and nothing was charged again.
      expect(
        readdirSync(work)
          .filter((f) => f.endsWith('.srt'))
          .sort(),
      ).toEqual(['lecture.es.srt', 'lecture.fr.srt']);
      expect(sb.state.ledger.length).toBe(charged);
      const [row] = (await second.api.listSources({})).sources;
      expect(row?.package).toMatchObject({
        state: 'done',
        format: 'mkv',
        path: pkg,
        languages: ['es', 'fr'],
      });
    } finally {
      await second.close();
    }
  });
});
