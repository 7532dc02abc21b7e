import { statSync } from 'node:fs';

const count = (n: number, word: string) => (n ? `${n} ${word}${n === 1 ? '' : 's'}` : '');

/**
 * "Reading 6 files…", said before anything else: probing each file (and starting the built-in sandbox)
 * can take seconds, and a blank terminal meanwhile looks stuck. Only stats, which never block (a FIFO
 * included).
 */
export function readingLine(inputs: readonly string[]): string {
  let files = 0;
  let folders = 0;
  let links = 0;
  for (const input of inputs) {
    if (/^https?:\/\//i.test(input)) links++;
    else {
      try {
        if (statSync(input).isDirectory()) folders++;
        else files++;
      } catch {
        files++; // refused with its reason once read
      }
    }
  }
  const parts = [count(files, 'file'), count(folders, 'folder'), count(links, 'link')].filter(Boolean);
  return `Reading ${parts.join(', ')}…\n`;
}
