import { lstatSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { link, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  alreadySettled,
  freeName,
  outputPath,
  sanitizeName,
  settle,
} from '../../electron/engine/outputs/naming';
import { identityOf, NameTakenError } from '../../electron/engine/files/own-file';
import { formatsOf } from '../../electron/engine/outputs/sniff';
import { OUTPUT_TYPES, type OutputType } from '../../shared/api/common';
import { tempDir } from '../helpers/temp-dir';

describe('output names', () => {
  it('sanitizes names from the service for every OS', () => {
    expect(sanitizeName('a/b\\c:d*e?f"g<h>i|j.mp4')).toBe('a_b_c_d_e_f_g_h_i_j.mp4');
    expect(sanitizeName('..\u0000hidden\u0007.mp4. ')).toBe('_hidden_.mp4');
    expect(sanitizeName('CON.mp4')).toBe('_CON.mp4');
    expect(sanitizeName('   ')).toBe('dub');
    expect(sanitizeName('x'.repeat(300))).toHaveLength(180);
  });

  const video: OutputType[] = ['translated_mp4', 'translated_subtitle'];

  it('puts the language before the extension so players pair video and subtitles', () => {
    expect(outputPath('suffix', 'Movie', 'es', 'translated_mp4', 'mp4', video)).toBe('Movie.es.mp4');
    expect(outputPath('suffix', 'Movie', 'es', 'translated_subtitle', 'srt', video)).toBe('Movie.es.srt');
    // The service's own format takes the plain name when its converted twin is not wanted too.
    expect(outputPath('suffix', 'Movie', 'es', 'translated', 'mp4', ['translated'])).toBe('Movie.es.mp4');
    expect(outputPath('suffix', 'Movie', 'es', 'translated', 'mp4', [...video, 'translated'])).toBe(
      'Movie.es (service format).mp4',
    );
  });

  it('never gives two output types of one dub the same name, whatever format each turns out to be', () => {
    for (const naming of ['suffix', 'folders'] as const)
      for (const wanted of [OUTPUT_TYPES, ['translated', 'translated_mp3'] as OutputType[]]) {
        const names = new Map<string, string>();
        for (const type of wanted)
          for (const ext of formatsOf(type)) {
            const name = outputPath(naming, 'clip', 'es', type, ext, wanted);
            const other = names.get(name);
            expect(other === undefined || other === type, `${name}: ${type} and ${other}`).toBe(true);
            names.set(name, type);
          }
      }
    // What the issue saw: original and original_mp4 of an MP4, translated and translated_mp3 of an MP3.
    expect(outputPath('suffix', 'clip', 'es', 'original', 'mp4', OUTPUT_TYPES)).toBe('clip.original.mp4');
    expect(outputPath('suffix', 'clip', 'es', 'original_mp4', 'mp4', OUTPUT_TYPES)).toBe(
      'clip.original (converted).mp4',
    );
    expect(outputPath('suffix', 'voice', 'es', 'translated', 'mp3', ['translated', 'translated_mp3'])).toBe(
      'voice.es (service format).mp3',
    );
  });

  it('names what does not depend on the language once per source, never like the source itself', () => {
    expect(outputPath('suffix', 'Movie', 'es', 'poster', 'jpg', video)).toBe('Movie.poster.jpg');
    expect(outputPath('suffix', 'Movie', 'es', 'original', 'mp4', video)).toBe('Movie.original.mp4');
    expect(outputPath('suffix', 'Movie', 'es', 'original_mp3', 'mp3', video)).toBe(
      'Movie.original-audio.mp3',
    );
    expect(outputPath('suffix', 'Movie', 'es', 'original_subtitle', 'vtt', video)).toBe('Movie.original.vtt');
  });

  it('puts each language in a folder of its own with the folders naming', () => {
    expect(outputPath('folders', 'Movie', 'es', 'translated_mp4', 'mp4', video)).toBe(
      join('es', 'Movie.mp4'),
    );
    expect(outputPath('folders', 'Movie', 'es', 'translated_subtitle', 'vtt', video)).toBe(
      join('es', 'Movie.vtt'),
    );
    expect(outputPath('folders', 'Movie', 'es', 'original_subtitle', 'vtt', video)).toBe(
      join('original', 'Movie.vtt'),
    );
  });

  it('never picks a taken name: Movie.es (2).mp4, and skips names with a .part in progress', async () => {
    const dir = tempDir();
    expect(await freeName(dir, 'Movie.es.mp4')).toBe(join(dir, 'Movie.es.mp4'));
    await writeFile(join(dir, 'Movie.es.mp4'), 'x');
    await writeFile(join(dir, 'Movie.es (2).mp4.part'), 'x');
    expect(await freeName(dir, 'Movie.es.mp4')).toBe(join(dir, 'Movie.es (3).mp4'));
  });

  it('settle never replaces an existing file and recognises its own half-finished move', async () => {
    const dir = tempDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'a.es.mp4'), 'theirs');
    await writeFile(join(dir, 'a.es.mp4.part'), 'ours');
    expect(await settle(join(dir, 'a.es.mp4.part'), join(dir, 'a.es.mp4'))).toBe(join(dir, 'a.es (2).mp4'));
    expect(await readFile(join(dir, 'a.es.mp4'), 'utf8')).toBe('theirs');
    expect(await readFile(join(dir, 'a.es (2).mp4'), 'utf8')).toBe('ours');
    await expect(stat(join(dir, 'a.es.mp4.part'))).rejects.toThrow();

    // Crashed after linking, before removing the .part: same inode, so it is ours.
    await writeFile(join(dir, 'b.mp4.part'), 'done');
    await link(join(dir, 'b.mp4.part'), join(dir, 'b.mp4'));
    expect(await alreadySettled(join(dir, 'b.mp4'), 4)).toBe(true);
    await expect(stat(join(dir, 'b.mp4.part'))).rejects.toThrow();
    // Moved but not recorded: the size says so. A different file of another size is not ours.
    expect(await alreadySettled(join(dir, 'b.mp4'), 4)).toBe(true);
    expect(await alreadySettled(join(dir, 'a.es.mp4'), 4)).toBe(false);
  });
});

describe('settle with the identity of the file written', () => {
  it('never moves into place a link (or another file) put at the part’s name after it was written', async () => {
    const dir = tempDir();
    const away = tempDir();
    const part = join(dir, 'a.es.mp4.part');
    writeFileSync(part, 'the download');
    const written = identityOf(lstatSync(part));
    // Swapped between the download's end and the move: a link to a file elsewhere, then another plain file
    // (the file written is kept elsewhere meanwhile, so the new one cannot take its inode number).
    renameSync(part, join(away, 'kept'));
    writeFileSync(join(away, 'elsewhere.mp4'), 'not ours');
    symlinkSync(join(away, 'elsewhere.mp4'), part);
    await expect(settle(part, join(dir, 'a.es.mp4'), written)).rejects.toBeInstanceOf(NameTakenError);
    rmSync(part);
    writeFileSync(part, 'someone else’s');
    await expect(settle(part, join(dir, 'a.es.mp4'), written)).rejects.toBeInstanceOf(NameTakenError);
    expect(readdirSync(dir)).toEqual(['a.es.mp4.part']);
    // The file written itself settles.
    const own = identityOf(lstatSync(part));
    expect(await settle(part, join(dir, 'a.es.mp4'), own)).toBe(join(dir, 'a.es.mp4'));
  });
});
