import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, sourceFiles } from '../../helpers/import-graph';

const root = fileURLToPath(new URL('../../../electron/sandbox', import.meta.url));

describe('the sandbox import graph', () => {
  it('has no circles of runtime imports (issue 20: body.ts <-> http.ts)', () => {
    const files = sourceFiles(root);
    expect(files.length).toBeGreaterThan(20);
    expect(circles(importGraph(files, { runtime: true }), root)).toEqual([]);
  });
});
