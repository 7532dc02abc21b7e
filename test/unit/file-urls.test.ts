/**
 * A file URL is never read as a path through `URL.pathname`: on Windows that gives `/D:/…`, and on every
 * system a space becomes `%20` and an accent `%C3%A9` (issue 30, review item 2: `npm ci` stopped in any
 * folder whose path had a space). Every config, script and test turns file URLs into paths with
 * `fileURLToPath`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '../..');
const CODE = /\.(?:[cm]?[jt]s|tsx)$/;
/** `new URL(…, import.meta.url).pathname`, `pathToFileURL(x).pathname`, `fileUrl.pathname`. */
const PATH_FROM_URL = [
  /import\.meta\.url\s*\)\s*\.pathname/,
  /pathToFileURL\([^)]*\)\s*\.pathname/,
  /file(?:Url|URL)\w*\.pathname/,
];

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => CODE.test(f) && f !== 'test/unit/file-urls.test.ts');

describe('file URLs', () => {
  it('are turned into paths with fileURLToPath in every config, script and test', () => {
    expect(tracked.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of tracked) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (PATH_FROM_URL.some((re) => re.test(line))) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('and the check sees the mistake it is about', () => {
    const line = "root: new URL('.', import.meta.url).pathname,";
    expect(PATH_FROM_URL.some((re) => re.test(line))).toBe(true);
  });
});
