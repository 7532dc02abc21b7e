/** The schema-free list the preload uses names exactly the contract's methods, in the table's order. */
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../shared/contract/method-names';
import { METHODS } from '../../shared/contract/methods';

describe('the contract’s method names', () => {
  it('are the method table’s keys', () => {
    expect([...METHOD_NAMES]).toEqual(Object.keys(METHODS));
  });
});
