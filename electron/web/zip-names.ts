import { basename, isAbsolute, relative } from 'node:path';

/** A result to put in the zip: the job's output folder and the file's path. */
export interface ZipSource {
  outDir: string;
  path: string;
}

/** A result's place under its job's output folder (`es/Movie.mp4`), or its bare name when it lies elsewhere. */
function placeUnder(outDir: string, path: string): string {
  const rel = relative(outDir, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(/[\\/]/).join('/') : basename(path);
}

/** Names that one file system would take for one file: macOS and Windows ignore case, macOS the normal form. */
const sameOnDisk = (name: string) => name.normalize('NFC').toLowerCase();

/** `intro.es.mp4` as `intro (2).es.mp4`: the number before the first extension, so pairs keep pairing. */
function numbered(name: string, n: number): string {
  const slash = name.lastIndexOf('/') + 1;
  const dot = name.indexOf('.', slash + 1);
  const end = dot === -1 ? name.length : dot;
  return `${name.slice(0, end)} (${n})${name.slice(end)}`;
}

/** The first of `name`, `name (2)`, … that `taken` does not hold (compared as one file system would). */
function unique(name: string, taken: Set<string>, number: (name: string, n: number) => string): string {
  let candidate = name;
  for (let n = 2; taken.has(sameOnDisk(candidate)); n++) candidate = number(name, n);
  taken.add(sameOnDisk(candidate));
  return candidate;
}

/**
 * The name of each result inside "Download all": its place under its output folder. When results from
 * different folders would share a name (two courses' `intro.es.mp4`, or `Intro` and `intro`, one file once
 * unzipped on macOS or Windows), every result goes under its folder's name (`course-a/intro.es.mp4`), folders
 * of the same name numbered; nothing is dropped or overwritten. A file listed twice (a source's shared
 * outputs) is named once: the map holds each path once.
 */
export function zipEntryNames(sources: readonly ZipSource[]): Map<string, string> {
  const byPath = new Map<string, { outDir: string; place: string }>();
  for (const s of sources)
    if (!byPath.has(s.path)) byPath.set(s.path, { outDir: s.outDir, place: placeUnder(s.outDir, s.path) });
  const places = new Set<string>();
  let clash = false;
  for (const { place } of byPath.values()) {
    const key = sameOnDisk(place);
    clash ||= places.has(key);
    places.add(key);
  }
  const names = new Map<string, string>();
  const taken = new Set<string>();
  if (!clash) {
    for (const [path, { place }] of byPath) names.set(path, unique(place, taken, numbered));
    return names;
  }
  const folders = new Map<string, string>();
  const folderNames = new Set<string>();
  for (const [path, { outDir, place }] of byPath) {
    let folder = folders.get(outDir);
    if (folder === undefined) {
      folder = unique(basename(outDir) || 'results', folderNames, (f, n) => `${f} (${n})`);
      folders.set(outDir, folder);
    }
    names.set(path, unique(`${folder}/${place}`, taken, numbered));
  }
  return names;
}
