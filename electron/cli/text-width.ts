import type cliTruncateFn from 'cli-truncate';
import type stringWidthFn from 'string-width';
import type wrapAnsiFn from 'wrap-ansi';

/**
 * How wide text is in a terminal, and how to cut or wrap it there. These packages build Unicode tables when
 * they load (an `Intl.Segmenter`, the emoji property sets): a tenth of every command's start, for `--help`
 * or `status --json` that never lay out a line. So they load before a command's action runs (the program's
 * preAction hook), not when the CLI does.
 */
interface Loaded {
  stringWidth: typeof stringWidthFn;
  cliTruncate: typeof cliTruncateFn;
  wrapAnsi: typeof wrapAnsiFn;
}

let loaded: Loaded | null = null;

export async function loadTextWidth(): Promise<void> {
  if (loaded) return;
  const [width, truncate, wrap] = await Promise.all([
    import('string-width'),
    import('cli-truncate'),
    import('wrap-ansi'),
  ]);
  loaded = { stringWidth: width.default, cliTruncate: truncate.default, wrapAnsi: wrap.default };
}

function need(): Loaded {
  if (!loaded) throw new Error('text layout used before loadTextWidth() (the preAction hook) ran');
  return loaded;
}

export const stringWidth: typeof stringWidthFn = (...args) => need().stringWidth(...args);
export const cliTruncate: typeof cliTruncateFn = (...args) => need().cliTruncate(...args);
export const wrapAnsi: typeof wrapAnsiFn = (...args) => need().wrapAnsi(...args);
