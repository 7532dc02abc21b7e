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

/**
 * Tags nested deeper than this are no subtitle anyone wrote: each level is a stack frame of the parser, of
 * the checks and of the writers, and a few hundred thousand (600 KB of `<i>`) exhaust the stack.
 */
const MAX_TAG_DEPTH = 64;
const TOO_DEEP = `its tags are nested more than ${MAX_TAG_DEPTH} deep`;

interface RawNode {
  type?: unknown;
  value?: unknown;
  children?: unknown;
}
const childrenOf = (node: RawNode): RawNode[] =>
  Array.isArray(node.children) ? (node.children as RawNode[]) : [];

/** How deep a parsed cue's tags go, and its text in order: both without recursion. */
function depthAndText(tree: RawNode): { depth: number; text: string } {
  let depth = 0;
  let text = '';
  const stack: [RawNode, number][] = [[tree, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, level] = next;
    depth = Math.max(depth, level);
    if (node.type === 'text' && typeof node.value === 'string') text += node.value;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] ?? {}, level + 1]);
  }
  return { depth, text };
}

/** The parser's result with each cue nested too deep kept as its text alone, and said among the errors. */
function flattened(raw: unknown): unknown {
  const result = raw as { cues?: unknown; errors?: unknown };
  if (!Array.isArray(result.cues) || !Array.isArray(result.errors)) return raw;
  for (const cue of result.cues as { tree?: RawNode }[]) {
    if (!cue.tree) continue;
    const { depth, text } = depthAndText(cue.tree);
    if (depth <= MAX_TAG_DEPTH) continue;
    cue.tree = { children: [{ type: 'text', value: text }] };
    (result.errors as unknown[]).push({ message: TOO_DEEP, line: null });
  }
  return raw;
}

/** Reads a WebVTT file's text with the W3C's parser: never throws, what is wrong is in `errors`. */
export function parseWebVtt(text: string): WebVttParse {
  let raw: unknown;
  try {
    raw = new webvtt.WebVTTParser(allEntities()).parse(text.replace(/^\uFEFF/, ''), 'subtitles');
  } catch (e) {
    // The parser recurses once per tag level: so deep a nesting that it ran out of stack reads as nothing.
    if (e instanceof RangeError) return { cues: [], errors: [{ message: TOO_DEEP, line: null }] };
    throw e;
  }
  const parsed = ParsedSchema.parse(flattened(raw));
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
