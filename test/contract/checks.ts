import { expect } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES, type ContractError } from '../../shared/contract/errors';
import { METHODS, type MethodName } from '../../shared/contract/methods';

/** Events come through a process boundary for two transports, and watch events are throttled. */
export const HEARD = { timeout: 15_000 };

const ErrorShape = z.object({ code: z.enum(ERROR_CODES), message: z.string().min(1) });

/** Calls `fn`, expects it to fail with a contract error of `code`; returns the error for more checks. */
export async function failsWith(
  code: ContractError['code'],
  fn: () => Promise<unknown>,
): Promise<ContractError> {
  try {
    await fn();
  } catch (e) {
    const parsed = ErrorShape.safeParse(e);
    expect(parsed.success, `a contract error, got ${String(e)}`).toBe(true);
    expect((e as ContractError).code).toBe(code);
    return e as ContractError;
  }
  throw new Error(`expected a '${code}' error, the call succeeded`);
}

/** Results are plain JSON: they survive a JSON round trip unchanged, and match their schema. */
export function plain<K extends MethodName>(name: K, value: unknown): void {
  expect(JSON.parse(JSON.stringify(value))).toEqual(value);
  const parsed = METHODS[name].output.safeParse(value);
  expect(
    parsed.success,
    `${name} result matches its schema: ${parsed.success ? '' : parsed.error.message}`,
  ).toBe(true);
}
