import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, sourceFiles } from '../helpers/import-graph';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the engine, the shells, the CLI, serve and the sandbox', () => {
  it('have no import circle, type-only imports included', () => {
    const files = ['electron', 'shared'].flatMap((d) => sourceFiles(join(root, d)));
    expect(files.length).toBeGreaterThan(300);
    // Type-only imports count: they tie modules together just the same for a reader.
    expect(circles(importGraph(files, { runtime: false }), root)).toEqual([]);
  });
});
