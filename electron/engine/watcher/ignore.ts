import { basename, extname, isAbsolute, relative, sep } from 'node:path';
import { MEDIA_EXTENSIONS } from '../media/probe';

/** Subfolders of a watched folder that are never watched: where `after: move` puts the originals. */
export const DONE_DIR = 'done';
export const FAILED_DIR = 'failed';

/** Downloads and copies in progress, editors' and OS's own files: never media to dub. */
const TEMP_EXTENSIONS = new Set([
  '.part',
  '.partial',
  '.crdownload',
  '.download',
  '.opdownload',
  '.filepart',
  '.tmp',
  '.temp',
  '.swp',
  '.!ut',
]);
const SYSTEM_NAMES = new Set(['thumbs.db', 'desktop.ini', 'ehthumbs.db', 'icon\r']);

/**
 * A name no user means as a source: hidden (`.DS_Store`, `._Movie.mp4`, `.Trash`), Office lock files
 * (`~$Movie.mp4`), backups (`Movie.mp4~`), partial downloads and temporary files, Windows' own files.
 */
export function isTempOrSystemName(name: string): boolean {
  if (name.startsWith('.') || name.startsWith('~$') || name.endsWith('~')) return true;
  const lower = name.toLowerCase();
  if (SYSTEM_NAMES.has(lower)) return true;
  return TEMP_EXTENSIONS.has(extname(lower));
}

export const isMediaName = (name: string) => MEDIA_EXTENSIONS.has(extname(name).toLowerCase());

export interface IgnoreRules {
  /** The watched folder, absolute. */
  root: string;
  /** Where this folder's results go, absolute. */
  outRoot: string;
  recursive: boolean;
  naming: 'suffix' | 'folders';
  languages: readonly string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `Movie.es.mp4`, `Movie.es (2).mp4`, `Movie.original.vtt`, `Movie.poster.jpg`… (see outputs/naming). */
function outputNamePattern(languages: readonly string[]): RegExp {
  const tags = [...languages, 'original', 'original-audio', 'poster'].map(escape).join('|');
  return new RegExp(`\\.(?:${tags})(?: \\(service format\\))?(?: \\(\\d+\\))?\\.[a-z0-9]+$`, 'i');
}

export const inside = (parent: string, child: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * Decides what a folder's watcher never looks at. `kind` is unknown when the caller has not stat'ed the
 * path yet (chokidar asks twice): only the rules true of files and folders alike apply then.
 */
export class IgnoreMatcher {
  private readonly outputNames: RegExp;
  /** The output folder is the watched folder's own subfolder: all of it is ours. */
  private readonly outInside: boolean;
  /** The output folder is the watched folder itself: results lie beside the sources. */
  private readonly outHere: boolean;

  /** `root` and a separator: a plain path below it is relative by slicing (chokidar asks 2-3 times a file). */
  private readonly prefix: string;

  constructor(private readonly rules: IgnoreRules) {
    this.prefix = rules.root.endsWith(sep) ? rules.root : `${rules.root}${sep}`;
    this.outputNames = outputNamePattern(rules.languages);
    this.outHere = relative(rules.root, rules.outRoot) === '';
    this.outInside = !this.outHere && inside(rules.root, rules.outRoot);
  }

  ignored(path: string, kind?: 'file' | 'dir'): boolean {
    const { root } = this.rules;
    // Only a path with no `.`-led or empty segment is sliced; `path.relative` normalises the others.
    const plain =
      path.startsWith(this.prefix) &&
      !path.endsWith(sep) &&
      !path.includes(`${sep}.`) &&
      !path.includes(`${sep}${sep}`);
    const rel = plain ? path.slice(this.prefix.length) : relative(root, path);
    if (rel === '') return false;
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return true;
    const parts = rel.split(sep);
    const dirs = kind === 'dir' ? parts : parts.slice(0, -1);
    const name = parts[parts.length - 1] ?? '';
    if (parts.some((p) => isTempOrSystemName(p))) return true;
    if (parts[0] === DONE_DIR || parts[0] === FAILED_DIR) return parts.length > 1 || kind !== 'file';
    if (this.outInside && inside(this.rules.outRoot, path)) return true;
    if (!this.rules.recursive && (dirs.length > 0 || kind === 'dir')) return true;
    if (this.outHere && this.rules.naming === 'folders') {
      const reserved = new Set([...this.rules.languages, 'original']);
      if (dirs.some((d) => reserved.has(d))) return true;
    }
    if (kind === 'file') {
      if (!isMediaName(name)) return true;
      if (this.outHere && this.rules.naming === 'suffix' && this.outputNames.test(basename(path)))
        return true;
    }
    return false;
  }
}
