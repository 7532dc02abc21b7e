import { describe, expect, it } from 'vitest';
import { extensionForMime } from '../../shared/media-types';
import { nameFromUrl } from '../../shared/url-name';

describe('shared helpers', () => {
  it('names a URL source by its last segment, never throwing on a malformed escape', () => {
    expect(nameFromUrl('https://h.example/videos/My%20Talk.mp4?sig=1#t')).toBe('My Talk.mp4');
    expect(nameFromUrl('https://h/a%E0.mp4')).toBe('a%E0.mp4');
    expect(nameFromUrl('https://h/a%E0%20b.mp4')).toBe('a%E0 b.mp4');
    expect(nameFromUrl('https://h.example/')).toBe('source');
    expect(nameFromUrl('not a url at all')).toBe('not a url at all');
  });

  it('maps MIME types to extensions whatever their case or parameters', () => {
    expect(extensionForMime('video/mp4')).toBe('mp4');
    expect(extensionForMime('Text/VTT; charset=utf-8')).toBe('vtt');
    expect(extensionForMime('application/x-unknown')).toBeNull();
    expect(extensionForMime(null)).toBeNull();
  });
});
