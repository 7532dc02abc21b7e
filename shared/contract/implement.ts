import type { z } from 'zod';
import { DubdeskError, badRequest, toContractError } from './errors';
import type { EventListener } from './events';
import { METHODS, type DubdeskApi, type DubdeskHandlers, type MethodName } from './methods';
import { callerOf } from './proxy';

export interface ImplementOptions {
  /** Parse every result with its schema too (tests do: a result that breaks the contract fails loudly). */
  checkOutputs?: boolean;
}

/**
 * Wraps handlers into a DubdeskApi: every argument is parsed with its schema (a bad one is a `bad-request`
 * naming the field), every failure becomes a DubdeskError, every result is plain JSON. Each transport (IPC,
 * HTTP) calls the same wrapped methods, so all faces refuse and answer alike.
 */
export function implementApi(
  handlers: DubdeskHandlers,
  subscribe: (listener: EventListener) => () => void,
  options: ImplementOptions = {},
): DubdeskApi {
  return { ...callerOf((name, input) => invoke(handlers, name, input, options)), subscribe };
}

export async function invoke(
  handlers: DubdeskHandlers,
  name: MethodName,
  input: unknown,
  options: ImplementOptions = {},
): Promise<unknown> {
  const spec = METHODS[name];
  let args: unknown = undefined;
  if (spec.input) {
    const parsed = (spec.input as z.ZodType).safeParse(input ?? {});
    if (!parsed.success) throw badRequest(parsed.error, name);
    args = parsed.data;
  }
  try {
    const handler = handlers[name] as (a: unknown) => unknown;
    const result = await handler(args);
    if (options.checkOutputs) {
      const checked = (spec.output as z.ZodType).safeParse(result);
      if (!checked.success)
        throw new DubdeskError('internal', `${name} broke its contract: ${checked.error.message}`);
    }
    return result;
  } catch (e) {
    throw e instanceof DubdeskError ? e : DubdeskError.from(toContractError(e));
  }
}
