/** Subtitles that could not be read as WebVTT, so were not converted. */
export class SubtitleConversionError extends Error {
  override name = 'SubtitleConversionError';
}
