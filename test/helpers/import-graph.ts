import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The TypeScript files under `dir` (.ts, and .tsx where asked), declaration files left out. */
export function sourceFiles(dir: string, opts: { tsx?: boolean } = {}): string[] {
  const wanted = opts.tsx ? /\.tsx?$/ : /\.ts$/;
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path, opts);
    return wanted.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
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

/** The relative module names a file imports or re-exports; `runtime` leaves out the type-only ones. */
function specifiers(file: string, runtime: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  if (!runtime) return ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  return source.statements.flatMap((node) => {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) return [];
    const spec = node.moduleSpecifier;
    return spec && ts.isStringLiteral(spec) && !typeOnly(node) ? [spec.text] : [];
  });
}

/**
 * The files each file imports, among `files`. `runtime`: only what is loaded at run time (a type-only
 * import makes no loop when the program runs); otherwise every import, as type-only ones tie modules together
 * just the same for a reader.
 */
export function importGraph(files: readonly string[], opts: { runtime: boolean }): Map<string, string[]> {
  const targets = importsOf(files, opts);
  return new Map(files.map((f) => [f, targets(f)]));
}

/** What a file imports, among `files` (see `importGraph`). */
function importsOf(files: readonly string[], opts: { runtime: boolean }): (file: string) => string[] {
  const known = new Set(files);
  return (file: string) =>
    specifiers(file, opts.runtime)
      .filter((name) => name.startsWith('.'))
      .flatMap((name) => {
        const base = resolve(dirname(file), name);
        return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].filter(
          (p) => known.has(p) && existsSync(p),
        );
      });
}

/** The files `start` loads, itself included, following imports among `files`; parses only those. */
export function reachableFrom(
  start: string,
  files: readonly string[],
  opts: { runtime: boolean },
): Set<string> {
  const targets = importsOf(files, opts);
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of targets(file)) walk(next);
  };
  walk(start);
  return seen;
}

/** Every import circle in the graph, each as the path around it (back to its start), named from `root`. */
export function circles(graph: ReadonlyMap<string, readonly string[]>, root: string): string[][] {
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
  for (const f of graph.keys()) walk(f, []);
  return found;
}
