/**
 * The two adapters every transport is built from, over the contract's method names: an api whose methods
 * send their name and argument somewhere (`callerOf`), and handlers that pass parsed arguments on to an
 * api (`handlersOf`). The loop over the names, and the one cast it needs, live here only. Loads no schema
 * (method-names only), so the sandboxed preload can use it.
 */
import { METHOD_NAMES, type MethodName } from './method-names';
import type { DubdeskApi, DubdeskHandlers } from './methods';

/** Every method of the contract, without the event subscription. */
export type ContractMethods = Omit<DubdeskApi, 'subscribe'>;

/** An api whose every method is `send(itsName, itsArgument)`. */
export function callerOf(send: (name: MethodName, arg: unknown) => Promise<unknown>): ContractMethods {
  const methods: Partial<Record<MethodName, (arg?: unknown) => Promise<unknown>>> = {};
  for (const name of METHOD_NAMES) methods[name] = (arg?: unknown) => send(name, arg);
  return methods as ContractMethods;
}

/** The handlers `invoke` calls, each passing its parsed argument on to the same method of `api`. */
export function handlersOf(api: ContractMethods): DubdeskHandlers {
  const handlers: Partial<Record<MethodName, (args: unknown) => unknown>> = {};
  for (const name of METHOD_NAMES) {
    const method = api[name] as (args?: unknown) => Promise<unknown>;
    handlers[name] = (args) => method.call(api, args);
  }
  return handlers as DubdeskHandlers;
}
