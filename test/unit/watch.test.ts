import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WatchPresetPatchSchema, WatchPresetSchema } from '../../shared/contract/watch';
import { hashForTaking, look } from '../../electron/engine/watcher/file-check';
import { IgnoreMatcher, isTempOrSystemName } from '../../electron/engine/watcher/ignore';
import { byFileSystemType, byLocation, pollDecision } from '../../electron/engine/watcher/volume';
import { tempDir } from '../helpers/temp-dir';

describe('names a watched folder never takes', () => {
  it('temporary, partial, hidden and system files', () => {
    for (const name of [
      'Movie.mp4.part',
      'Movie.mp4.crdownload',
      'Movie.tmp',
      'Movie.mp4.download',
      '~$Movie.mp4',
      'Movie.mp4~',
      '.hidden.mp4',
      '._Movie.mp4',
      '.DS_Store',
      'Thumbs.db',
      'THUMBS.DB',
      'desktop.ini',
    ])
      expect(isTempOrSystemName(name), name).toBe(true);
    for (const name of ['Movie.mp4', 'my.movie.mov', 'part 2.mp3', 'tmp-cut.wav'])
      expect(isTempOrSystemName(name), name).toBe(false);
  });

  const root = '/w';
  const m = (over: Partial<ConstructorParameters<typeof IgnoreMatcher>[0]> = {}) =>
    new IgnoreMatcher({
      root,
      outRoot: '/w/dubbed',
      recursive: false,
      naming: 'suffix',
      languages: ['es', 'fr'],
      ...over,
    });

  it('only media, only the folder’s own files unless recursive, never done/, failed/ or the output folder', () => {
    const flat = m();
    expect(flat.ignored('/w', 'dir')).toBe(false);
    expect(flat.ignored('/w/a.mp4', 'file')).toBe(false);
    expect(flat.ignored('/w/a.txt', 'file')).toBe(true);
    expect(flat.ignored('/w/sub', 'dir')).toBe(true);
    expect(flat.ignored('/w/sub/a.mp4', 'file')).toBe(true);
    expect(flat.ignored('/elsewhere/a.mp4', 'file')).toBe(true);
    const deep = m({ recursive: true });
    // Paths that are not plain are normalised first: a way out of the folder stays out, a doubled or a
    // trailing separator changes nothing.
    expect(deep.ignored('/w/sub/../../etc/a.mp4', 'file')).toBe(true);
    expect(deep.ignored('/w/./sub/a.mp4', 'file')).toBe(false);
    expect(deep.ignored('/w//sub/a.mp4', 'file')).toBe(false);
    expect(deep.ignored('/w/sub/', 'dir')).toBe(false);
    expect(deep.ignored('/w/', 'dir')).toBe(false);
    expect(deep.ignored('/wx/a.mp4', 'file')).toBe(true);
    expect(deep.ignored('/w/sub', 'dir')).toBe(false);
    expect(deep.ignored('/w/sub/a.mp4', 'file')).toBe(false);
    expect(deep.ignored('/w/sub', undefined)).toBe(false);
    for (const p of [
      '/w/done',
      '/w/failed',
      '/w/dubbed',
      '/w/done/a.mp4',
      '/w/dubbed/a.es.mp4',
      '/w/.git/a.mp4',
    ])
      expect(deep.ignored(p, p.endsWith('.mp4') ? 'file' : 'dir'), p).toBe(true);
    // A folder merely named like them deeper down is the user's.
    expect(deep.ignored('/w/sub/done/a.mp4', 'file')).toBe(false);
  });

  it('results written beside the sources, by their names (suffix) or their folders (folders)', () => {
    const suffix = m({ outRoot: '/w', recursive: true });
    for (const name of [
      'a.es.mp4',
      'a.fr.mp3',
      'a.es (2).mp4',
      'a.es (service format).mp4',
      'a.original.mp4',
      'a.poster.jpg',
    ])
      expect(suffix.ignored(`/w/${name}`, 'file'), name).toBe(true);
    expect(suffix.ignored('/w/a.mp4', 'file')).toBe(false);
    expect(suffix.ignored('/w/a.de.mp4', 'file')).toBe(false); // not one of this folder's languages
    const folders = m({ outRoot: '/w', recursive: true, naming: 'folders' });
    expect(folders.ignored('/w/es', 'dir')).toBe(true);
    expect(folders.ignored('/w/original/a.mp4', 'file')).toBe(true);
    expect(folders.ignored('/w/a.es.mp4', 'file')).toBe(false);
    // An output folder elsewhere: nothing in the watched one is a result by name.
    expect(m({ outRoot: '/out' }).ignored('/w/a.es.mp4', 'file')).toBe(false);
  });
});

describe('which folders are polled', () => {
  it('Linux: network and removable file systems, by their statfs type', () => {
    expect(byFileSystemType(0x6969)).toMatchObject({ polled: true, reason: expect.stringMatching(/nfs/) });
    expect(byFileSystemType(0xff534d42)).toMatchObject({
      polled: true,
      reason: expect.stringMatching(/cifs/),
    });
    expect(byFileSystemType(-11317950)).toMatchObject({ polled: true }); // 0xff534d42 read as signed
    expect(byFileSystemType(0x65735546)).toMatchObject({
      polled: true,
      reason: expect.stringMatching(/fuse/),
    });
    expect(byFileSystemType(0x4d44)).toMatchObject({
      polled: true,
      reason: expect.stringMatching(/removable/),
    });
    expect(byFileSystemType(0xef53)).toEqual({ polled: false, reason: null }); // ext4
    expect(byFileSystemType(0x01021994)).toEqual({ polled: false, reason: null }); // tmpfs
  });

  it('macOS by /Volumes, Windows by UNC paths and drives other than the system one', () => {
    expect(byLocation('darwin', '/Volumes/USB/in').polled).toBe(true);
    expect(byLocation('darwin', '/Users/me/Dubbing').polled).toBe(false);
    expect(byLocation('win32', '\\\\nas\\share\\in').polled).toBe(true);
    expect(byLocation('win32', 'E:\\in', 'C:').polled).toBe(true);
    expect(byLocation('win32', 'c:\\Users\\me\\in', 'C:').polled).toBe(false);
  });

  it('a folder’s own setting wins', async () => {
    const dir = tempDir();
    expect(await pollDecision(dir, 'always')).toEqual({ polled: true, reason: 'set for this folder' });
    expect(await pollDecision(dir, 'never')).toEqual({ polled: false, reason: null });
  });
});

describe('looking at a file never blocks', () => {
  it('a FIFO is seen as not a file and never opened for reading; a real file is hashed whole', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'pipe.mp4');
    execFileSync('mkfifo', [fifo]);
    expect(await look(fifo)).toEqual({ kind: 'other' });
    // Even if it is handed to the hash (swapped in after a look), the non-blocking open answers at once.
    expect(await hashForTaking(fifo, dir)).toMatchObject({ code: 'not-media' });
    const file = join(dir, 'a.mp4');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    writeFileSync(file, bytes);
    expect(await hashForTaking(file, dir)).toMatchObject({
      hash: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
    });
    expect(await look(join(dir, 'missing.mp4'))).toEqual({ kind: 'missing' });
  });
});

describe('the preset schemas', () => {
  it('a preset fills in its defaults; a patch changes only what it names', () => {
    expect(WatchPresetSchema.parse({ to: ['es'] })).toEqual({
      to: ['es'],
      from: 'auto',
      studio: false,
      api: 'v2',
      outputs: 'default',
      outDir: null,
      naming: 'suffix',
      after: 'leave',
      recursive: false,
      creditLimit: null,
      uploadOnce: 'auto',
      polling: 'auto',
      audioTrack: 'first',
      package: 'none',
      subtitles: ['vtt'],
      defaultAudio: 'original',
      loudness: 'broadcast',
    });
    expect(WatchPresetPatchSchema.parse({ studio: true })).toEqual({ studio: true });
    expect(WatchPresetPatchSchema.safeParse({ destination: 'x' }).success).toBe(false);
  });
});
