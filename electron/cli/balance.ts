import type { ApiGeneration } from '../../shared/domain';
import { ApiError } from '../engine/api/errors';
import type { Engine } from '../engine/engine';
import type { Plan } from '../engine/plan';

/** The balance, or null with a warning when the service cannot be asked now; a rejected key still stops. */
export async function balanceOrWarn(engine: Engine, api: ApiGeneration): Promise<number | null> {
  try {
    return await engine.balance(api);
  } catch (e) {
    if (e instanceof ApiError && e.kind === 'auth') throw e;
    process.stderr.write(
      `warning: cannot read the credit balance now (${e instanceof Error ? e.message : String(e)}).\n`,
    );
    return null;
  }
}

export function reportRejected(plan: Plan): void {
  for (const r of plan.rejected) process.stderr.write(`skipped: ${r.message}\n`);
}
