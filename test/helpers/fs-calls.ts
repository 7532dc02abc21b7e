import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Counts every stat and open of the paths `which` picks, however the engine or its watcher makes them
 * (promises, callbacks, sync): the builtins are wrapped and their ES module exports synced, until `undo`.
 */
export function countFileCalls(which: (path: string) => boolean): {
  stats: () => number;
  opens: () => number;
  undo: () => void;
} {
  let stats = 0;
  let opens = 0;
  const patched: [Record<string, unknown>, string, unknown][] = [];
  const wrap = (owner: Record<string, unknown>, name: string, kind: 'stat' | 'open') => {
    const original = owner[name] as (...a: unknown[]) => unknown;
    patched.push([owner, name, original]);
    owner[name] = (...a: unknown[]) => {
      if (typeof a[0] === 'string' && which(a[0])) {
        if (kind === 'stat') stats++;
        else opens++;
      }
      return original(...a);
    };
  };
  const promises = fsp as unknown as Record<string, unknown>;
  const callbacks = fs as unknown as Record<string, unknown>;
  for (const n of ['stat', 'lstat']) wrap(promises, n, 'stat');
  for (const n of ['stat', 'lstat', 'statSync', 'lstatSync']) wrap(callbacks, n, 'stat');
  for (const n of ['open', 'readFile']) wrap(promises, n, 'open');
  for (const n of ['open', 'openSync', 'createReadStream', 'readFile', 'readFileSync'])
    wrap(callbacks, n, 'open');
  syncBuiltinESMExports();
  return {
    stats: () => stats,
    opens: () => opens,
    undo: () => {
      for (const [owner, name, original] of patched) owner[name] = original;
      syncBuiltinESMExports();
    },
  };
}
