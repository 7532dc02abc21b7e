import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, reachableFrom, sourceFiles } from '../helpers/import-graph';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the engine, the shells, the CLI, serve and the sandbox', () => {
  it('have no import circle, type-only imports included', () => {
    const files = ['electron', 'shared'].flatMap((d) => sourceFiles(join(root, d)));
    expect(files.length).toBeGreaterThan(300);
    // Type-only imports count: they tie modules together just the same for a reader.
    expect(circles(importGraph(files, { runtime: false }), root)).toEqual([]);
  });

  it('let the dubdesk command load the engine only when a command needs it: `--help` and a bad flag do not pay for it', () => {
    const files = ['electron', 'shared'].flatMap((d) => sourceFiles(join(root, d)));
    const atStart = reachableFrom(join(root, 'electron', 'cli', 'main.ts'), files, { runtime: true });
    expect(atStart.size).toBeGreaterThan(20);
    const engine = [...atStart].map((f) => relative(root, f)).filter((f) => f.startsWith('electron/engine/'));
    expect(engine).toEqual([]);
  });
});
