import fc from 'fast-check';
import type { z } from 'zod';

/** The parts of a zod 4 definition this generator reads (the subset shared/api uses). */
interface Def {
  type: string;
  checks?: {
    _zod: { def: { check: string; value?: number; inclusive?: boolean; format?: string; minimum?: number } };
  }[];
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, string>;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Finite doubles without -0 (JSON writes it as 0, so it could not round-trip). */
const number = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => (x === 0 ? 0 : x));

/**
 * Values valid for a zod schema, generated from its definition: the service's responses as the spec allows
 * them, for round-trip properties. Throws on a schema feature it does not know, so a new one is noticed.
 */
export function arbitraryFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'string': {
      if (checks.some((c) => c.format === 'url')) return fc.webUrl({ withQueryParameters: true });
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 0;
      return fc.string({ minLength: min, maxLength: Math.max(min, 20), unit: 'grapheme' });
    }
    case 'number': {
      const lo = checks.find((c) => c.check === 'greater_than')?.value ?? -1e9;
      const hi = checks.find((c) => c.check === 'less_than')?.value ?? 1e9;
      const int = checks.some((c) => c.format === 'safeint');
      return int ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }) : number(lo, hi);
    }
    case 'boolean':
      return fc.boolean();
    case 'nullable':
      return fc.option(arbitraryFor(def.innerType as z.ZodType), { nil: null });
    case 'union':
      return fc.oneof(...(def.options ?? []).map(arbitraryFor));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'unknown':
      // Through JSON once, as a service's value would be: -0 becomes 0.
      return fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    case 'array':
      return fc.array(arbitraryFor(def.element as z.ZodType), { maxLength: 4 });
    case 'record':
      // zod builds records by assignment, so a `__proto__` key sets the prototype instead: not a round trip.
      return fc.dictionary(
        (arbitraryFor(def.keyType as z.ZodType) as fc.Arbitrary<string>).filter((k) => k !== '__proto__'),
        arbitraryFor(def.valueType as z.ZodType),
        { maxKeys: 4, noNullPrototype: true },
      );
    case 'object': {
      const shape = def.shape ?? {};
      const required = Object.keys(shape).filter((k) => defOf(shape[k] as z.ZodType).type !== 'optional');
      const model = Object.fromEntries(
        Object.entries(shape).map(([k, v]) => {
          const d = defOf(v);
          return [k, arbitraryFor(d.type === 'optional' ? (d.innerType as z.ZodType) : v)];
        }),
      );
      return fc.record(model, { requiredKeys: required, noNullPrototype: true });
    }
    default:
      throw new Error(`arbitraryFor: no generator for zod type '${def.type}'`);
  }
}
