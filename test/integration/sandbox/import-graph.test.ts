import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../electron/sandbox', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** True when the import or export brings in only types, so nothing of it is loaded at run time. */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
}

/** The sandbox files each sandbox file loads at run time (type-only imports left out). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
    const spec = node.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.') || typeOnly(node)) continue;
    const base = resolve(dirname(file), spec.text);
    const target = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
    if (target?.startsWith(root)) out.push(target);
  }
  return out;
}

/** Every circle of runtime imports, each as the files around it, named from the sandbox folder. */
function circles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, runtimeImports(f)]));
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) {
      found.push(path.slice(at).map((f) => relative(root, f)));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...path, file]);
    done.add(file);
  };
  for (const f of files) walk(f, []);
  return found;
}

describe('the sandbox import graph', () => {
  it('has no circles of runtime imports (issue 20: body.ts <-> http.ts)', () => {
    const files = sourceFiles(root);
    expect(files.length).toBeGreaterThan(20);
    expect(circles(files)).toEqual([]);
  });
});
