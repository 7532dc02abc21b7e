import { wrapIndented } from './status-view';
import { stringWidth } from './text-width';

const installed = new WeakSet<NodeJS.WriteStream>();

/** One line wider than `width` wrapped between its words (under its own indent); any other passes as it is. */
function fitted(line: string, width: number, hard: boolean): string {
  return stringWidth(line) > width ? wrapIndented(line, width, hard) : line;
}

/** The columns the last line of `text` takes, after `column` already taken before it. */
function endColumn(text: string, column: number): number {
  const newline = text.lastIndexOf('\n');
  return newline < 0 ? column + stringWidth(text) : stringWidth(text.slice(newline + 1));
}

/**
 * `chunk` as it goes on from `column`: a first line that would run past `width` starts on a line of its own
 * (a sentence written in pieces: "2 jobs: …" then " Balance: …"), and every line is wrapped between words.
 */
function laidOut(chunk: string, column: number, width: number, hard: boolean): string {
  const [first = '', ...rest] = chunk.split('\n');
  const head =
    column > 0 && column + stringWidth(first) > width
      ? `\n${fitted(first.trimStart(), width, hard)}`
      : fitted(first, width - column, hard);
  return [head, ...rest.map((line) => fitted(line, width, hard))].join('\n');
}

/**
 * Text to a terminal wrapped between words rather than by the terminal, which cuts words, paths and
 * commands to type at its edge ("`dubdesk login --base-url UR` / `L`"). It is written from many places, so
 * the stream is wrapped once here, for a terminal only (a pipe or a log file keeps one line per message).
 * Lines already laid out to the width (the live progress region, tables) are left alone. `hard`: a word
 * wider than the window is broken too; stdout leaves it whole (an address to open, a path to copy).
 */
export function wrapForTerminal(stream: NodeJS.WriteStream, hard: boolean): void {
  if (installed.has(stream) || !stream.isTTY) return;
  installed.add(stream);
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  // Where the cursor stands on its line after what this stream wrote: a line may be written in pieces.
  let column = 0;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    // A terminal that does not say its width (0 columns: `script`, a serial console) is left to wrap.
    if (typeof chunk !== 'string' || !stream.columns) return write(chunk, ...rest);
    // One column short of the edge: a line that fills the last column wraps on some terminals.
    const width = Math.max(20, stream.columns - 1);
    const text = laidOut(chunk, column, width, hard);
    column = endColumn(text, column);
    return write(text, ...rest);
  }) as typeof stream.write;
}
