import { toContractError, type ContractError } from '../../../shared/contract/errors';

/** Whatever a bridge call threw, as the contract's error (code, words, remedy, field). */
export function asError(e: unknown): ContractError {
  return toContractError(e);
}
