/**
 * The contract's transports (in-process, IPC both sides, the engine's utility process, HTTP both sides) are
 * built from the two adapters of shared/contract/proxy.ts, not from loops of their own over the names.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES, type MethodName } from '../../shared/contract/method-names';
import { callerOf, handlersOf } from '../../shared/contract/proxy';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

describe('one pair of adapters over the contract’s method names', () => {
  it('callerOf: every method sends its own name and its argument', async () => {
    const sent: [MethodName, unknown][] = [];
    const api = callerOf(async (name, arg) => {
      sent.push([name, arg]);
      return `${name} answered`;
    });
    for (const name of METHOD_NAMES) {
      const method = api[name] as (arg?: unknown) => Promise<unknown>;
      await expect(method({ of: name })).resolves.toBe(`${name} answered`);
    }
    expect(sent).toEqual(METHOD_NAMES.map((name) => [name, { of: name }]));
  });

  it('handlersOf: every handler calls the same method of the api, on the api itself', async () => {
    const api = callerOf(async () => 'unused');
    const seen: [string, unknown, unknown][] = [];
    for (const name of METHOD_NAMES)
      Object.assign(api, {
        [name](this: unknown, arg: unknown) {
          seen.push([name, arg, this]);
          return Promise.resolve(name.length);
        },
      });
    const handlers = handlersOf(api);
    for (const name of METHOD_NAMES) {
      const handler = handlers[name] as (args: unknown) => Promise<unknown>;
      await expect(handler(`${name} args`)).resolves.toBe(name.length);
    }
    expect(seen).toEqual(METHOD_NAMES.map((name) => [name, `${name} args`, api]));
  });

  it('no face or transport loops over the names itself', () => {
    const loops = ['electron', 'renderer/src', 'shared']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((file) =>
        /for \(const (\w+) of METHOD_NAMES\)[\s\S]{0,200}?\[\1\] =/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(ROOT, file));
    expect(loops).toEqual(['shared/contract/proxy.ts']);
  });
});
