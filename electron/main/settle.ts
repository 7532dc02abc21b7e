import { toContractError } from '../../shared/contract/errors';
import type { Reply } from './channels';

/** Runs `work` and answers with its value or its failure as a contract error. */
export async function settle<T>(work: () => Promise<T> | T): Promise<Reply<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (e) {
    return { ok: false, error: toContractError(e) };
  }
}
