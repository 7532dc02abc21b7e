import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, sourceFiles } from '../helpers/import-graph';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the renderer and the contract', () => {
  it('have no import circle (the store types import no slice)', () => {
    const files = ['renderer/src', 'shared'].flatMap((d) => sourceFiles(join(root, d), { tsx: true }));
    expect(files.length).toBeGreaterThan(50);
    // Type-only imports count: they tie modules together just the same.
    expect(circles(importGraph(files, { runtime: false }), root)).toEqual([]);
  });
});
