/**
 * Sizes and speeds (issue 31.7): binary units, labelled as such (KiB, MiB, GiB: 1 MiB = 1,048,576 bytes),
 * through one `formatBytes` and one `formatSpeed` in shared/, the same in the window, the tray, the CLI and
 * serve. Before, the window and the CLI divided by 1024 and said "MB", and the tray divided by 1000.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusLine } from '../../electron/main/queue-status';
import type { QueueTotals } from '../../shared/contract/queue';
import { formatBytes, formatSpeed } from '../../shared/format';
import { totals } from './desktop/fixtures';

const MiB = 1024 * 1024;
const ROOT = join(import.meta.dirname, '../..');

/** One upload under way at `bytesPerSecond`. */
function uploading(bytesPerSecond: number): QueueTotals {
  return totals({ counts: { uploading: 1 }, total: 1, left: 1, bytesPerSecond });
}

/** Product source files (TypeScript and TSX), comments left out. */
function productCode(): { file: string; code: string }[] {
  const out: { file: string; code: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
        out.push({
          file: relative(ROOT, path),
          code: readFileSync(path, 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/(^|[^:])\/\/.*$/gm, '$1'),
        });
    }
  };
  for (const top of ['electron', 'renderer/src', 'shared']) walk(join(ROOT, top));
  return out;
}

describe('sizes and speeds', () => {
  it('are binary units labelled KiB, MiB, GiB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(50 * MiB)).toBe('50 MiB');
    expect(formatBytes(390 * MiB)).toBe('390 MiB');
    expect(formatBytes(1024 ** 3)).toBe('1.0 GiB');
    expect(formatSpeed(3.5 * MiB)).toBe('3.5 MiB/s');
    expect(formatSpeed(950)).toBe('950 B/s');
  });

  it('the tray says the same as the window for the same transfer', () => {
    expect(statusLine(uploading(12_300_000))).toBe(`1 left · ${formatSpeed(12_300_000)}`);
    expect(statusLine(uploading(12_300_000))).toBe('1 left · 12 MiB/s');
  });

  it('no face labels a size or a speed on its own ("MB", "KB/s"): they all go through shared/format.ts', () => {
    const unit = /['"`][^'"`\n]*[\d}] ?[KMGT]B\b|\b[KMGT]B\/s/;
    const own = productCode()
      .filter(({ code }) => unit.test(code))
      .map(({ file, code }) => `${file}: ${unit.exec(code)?.[0]}`);
    expect(own).toEqual([]);
  });
});
