/**
 * The audio track choice as every face parses it (AudioTrackSchema): `first`, a track's number from 1 (as
 * text, or as a number a script's JSON gives), or a language; anything else refused in words that say what
 * a track choice is.
 */
import { describe, expect, it } from 'vitest';
import { AudioTrackSchema, pickTrack } from '../../shared/contract/audio-track';

const message = (v: unknown) => {
  const r = AudioTrackSchema.safeParse(v);
  return r.success ? null : r.error.issues.map((i) => i.message).join('; ');
};

describe('the audio track choice', () => {
  it.each([
    ['first', 'first'],
    [' First ', 'first'],
    ['2', '2'],
    [2, '2'],
    ['99', '99'],
    ['02', '2'],
    ['eng', 'eng'],
    ['EN', 'en'],
    ['fra', 'fra'],
  ])('%j reads as %j', (given, read) => {
    expect(AudioTrackSchema.parse(given)).toBe(read);
  });

  it.each([
    ['0', 'audio track 0 does not exist: tracks are counted from 1 (the first is 1)'],
    [0, 'audio track 0 does not exist'],
    ['100', 'audio track 100 is not a track number from 1 to 99'],
    [1.5, "'1.5' is not an audio track"],
    ['xx', "'xx' is not an audio track: an audio track is first, its number among the audio tracks"],
    ['und', "'und' is not an audio track"],
    ['', "'' is not an audio track"],
    [null, 'an audio track is first, its number'],
  ])('%j is refused: %s', (given, said) => {
    expect(message(given)).toContain(said);
  });

  it('a language names the first track tagged with it, in either ISO 639-2 form or ISO 639-1', () => {
    const tracks = [{ language: 'eng' }, { language: 'fre' }, { language: null }, { language: 'fre' }];
    expect(pickTrack(tracks, 'fra')?.number).toBe(2);
    expect(pickTrack(tracks, 'fr')?.number).toBe(2);
    expect(pickTrack(tracks, 'first')?.number).toBe(1);
    expect(pickTrack(tracks, '4')?.number).toBe(4);
    expect(pickTrack(tracks, '5')).toBeNull();
    expect(pickTrack(tracks, 'deu')).toBeNull();
  });
});
