/**
 * webvtt-parser (the W3C's WebVTT parser and validator) ships no types: the part Dubdesk calls. A CommonJS
 * module whose exports Node cannot name statically: imported whole (its default).
 */
declare module 'webvtt-parser' {
  interface WebVTTParser {
    /** Never throws on bad input: what it could not read is in `errors`, what it could in `cues`. */
    parse(input: string, mode?: 'subtitles' | 'chapters' | 'metadata'): unknown;
  }
  const webvtt: {
    /** `entities`: the named character references to decode (default: six; the package's JSON has all). */
    WebVTTParser: new (entities?: Record<string, string>) => WebVTTParser;
  };
  export default webvtt;
}
