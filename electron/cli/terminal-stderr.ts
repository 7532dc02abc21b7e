import { wrapIndented } from './status-view';
import { stringWidth } from './text-width';

let installed = false;

/** One line wider than `width` wrapped between its words (under its own indent); any other passes as it is. */
function fitted(line: string, width: number): string {
  return stringWidth(line) > width ? wrapIndented(line, width) : line;
}

/**
 * Messages to a terminal wrapped between words rather than by the terminal, which cuts words, paths and
 * commands to type at its edge ("`dubdesk login --base-url UR` / `L`"). The messages are written from many
 * places, so stderr is wrapped once here, for a terminal only (a pipe or a log file keeps one line per
 * message). Lines already laid out to the width (the live progress region, tables) are left alone.
 */
export function wrapStderrForTerminal(stream: NodeJS.WriteStream = process.stderr): void {
  if (installed || !stream.isTTY) return;
  installed = true;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    // A terminal that does not say its width (0 columns: `script`, a serial console) is left to wrap.
    if (typeof chunk !== 'string' || !stream.columns) return write(chunk, ...rest);
    // One column short of the edge: a line that fills the last column wraps on some terminals.
    const width = Math.max(20, stream.columns - 1);
    const text = chunk
      .split('\n')
      .map((line) => fitted(line, width))
      .join('\n');
    return write(text, ...rest);
  }) as typeof stream.write;
}
