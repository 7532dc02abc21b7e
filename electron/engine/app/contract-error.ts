import { DubdeskError } from '../../../shared/contract/errors';
import { classify } from '../jobs/errors';
import type { ActiveService, ServiceConnection } from './dubbing-service';

/** A failure of a call to the service, as the contract says it. */
export function asContractError(e: unknown): DubdeskError {
  if (e instanceof DubdeskError) return e;
  const { error } = classify(e);
  return DubdeskError.from(error);
}

/** The service, opened if it is not yet; why not as a contract error. */
export async function ensureService(services: ServiceConnection): Promise<ActiveService> {
  try {
    return await services.ensure();
  } catch (e) {
    throw asContractError(e);
  }
}

/** The legacy API is reached at an address of its own, which the settings must hold. */
export const legacyNeedsUrl = () =>
  new DubdeskError('config', 'the legacy API needs the address of the legacy interface', {
    remedy: 'Set the legacy URL in the settings.',
    field: 'legacyUrl',
  });
