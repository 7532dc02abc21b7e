import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files a file imports (type-only imports included: they tie modules together just the same). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .flatMap((name) => {
      const base = resolve(dirname(file), name);
      return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].filter((p) => {
        try {
          return statSync(p).isFile();
        } catch {
          return false;
        }
      });
    });
}

/** Every import circle among the files, each as the path around it (a depth-first search). */
function circles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (file: string, path: string[]): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      found.push([...path.slice(at), file].map((f) => relative(root, f)));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...path, file]);
    done.add(file);
  };
  for (const f of files) walk(f, []);
  return found;
}

describe('the renderer and the contract', () => {
  it('have no import circle (the store types import no slice)', () => {
    const files = [...sourceFiles(join(root, 'renderer/src')), ...sourceFiles(join(root, 'shared'))];
    expect(files.length).toBeGreaterThan(50);
    expect(circles(files)).toEqual([]);
  });
});
