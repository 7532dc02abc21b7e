import webvtt from 'webvtt-parser';
import htmlEntities from 'webvtt-parser/html-entities.json' with { type: 'json' };
import { z } from 'zod';

/**
 * Every named character reference HTML knows (`&eacute;`, `&amp;`…), as the spec's parser expects: checked
 * when subtitles are first read, not when the engine loads (two thousand of them).
 */
let entities: Record<string, string> | null = null;
const allEntities = () => (entities ??= z.record(z.string(), z.string()).parse(htmlEntities));

/** A cue's text as the parser reads it: text, tags (b, i, u, c, v, lang, ruby, rt) and timestamps. */
export type CueNode =
  | { type: 'text'; value: string }
  | { type: 'timestamp'; value: number }
  | { type: 'object'; name: string; value?: string | undefined; children: CueNode[] };

const CueNodeSchema: z.ZodType<CueNode> = z.lazy(() =>
  z.union([
    z.object({ type: z.literal('text'), value: z.string() }),
    z.object({ type: z.literal('timestamp'), value: z.number() }),
    z.object({
      type: z.literal('object'),
      name: z.string(),
      value: z.string().optional(),
      children: z.array(CueNodeSchema),
    }),
  ]),
);

/** What the parser hands back, checked (it is a plain JavaScript package). */
const ParsedSchema = z.object({
  cues: z.array(
    z.object({
      id: z.string(),
      startTime: z.number(),
      endTime: z.number(),
      tree: z.object({ children: z.array(CueNodeSchema) }),
    }),
  ),
  errors: z.array(z.object({ message: z.string(), line: z.number().nullable().optional() })),
});

export interface WebVttCue {
  id: string;
  /** Seconds. */
  start: number;
  end: number;
  nodes: CueNode[];
}

export interface WebVttParse {
  /** In the order of their start times (the spec's parser sorts them). */
  cues: WebVttCue[];
  /** What the parser could not read, each with its line. */
  errors: { message: string; line: number | null }[];
}

/** Reads a WebVTT file's text with the W3C's parser: never throws, what is wrong is in `errors`. */
export function parseWebVtt(text: string): WebVttParse {
  const raw = new webvtt.WebVTTParser(allEntities()).parse(text.replace(/^\uFEFF/, ''), 'subtitles');
  const parsed = ParsedSchema.parse(raw);
  return {
    cues: parsed.cues.map((c) => ({ id: c.id, start: c.startTime, end: c.endTime, nodes: c.tree.children })),
    errors: parsed.errors.map((e) => ({ message: e.message, line: e.line ?? null })),
  };
}

/** Tags SubRip players understand; the rest (voices, classes, language spans, ruby) keep only their text. */
const SRT_TAGS = new Set(['b', 'i', 'u']);

/** A cue's text as SubRip writes it: `<b>`, `<i>`, `<u>` kept, the text of every other tag kept without it. */
export function srtText(nodes: readonly CueNode[]): string {
  return nodes
    .map((n) => {
      if (n.type === 'text') return n.value;
      if (n.type === 'timestamp') return '';
      const inner = srtText(n.children);
      return SRT_TAGS.has(n.name) ? `<${n.name}>${inner}</${n.name}>` : inner;
    })
    .join('');
}

/** What a viewer reads of a cue: its text without any tag, lines joined. */
export function readText(nodes: readonly CueNode[]): string {
  return nodes
    .map((n) => (n.type === 'text' ? n.value : n.type === 'object' ? readText(n.children) : ''))
    .join('');
}
