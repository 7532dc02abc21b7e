import { DubdeskError } from '../../../../shared/contract/errors';
import { overBudget, type Spending } from '../../../../shared/contract/spending';

/** What the estimate says of the monthly budget for a batch of `credits`. */
export function budgetCheck(budget: Spending['budget'], credits: number) {
  const { over, left } = overBudget(budget, credits);
  return { overBudget: over, budgetLeft: left };
}

/** `add` refuses a batch past the monthly budget unless told to go ahead (`force`). */
export function refuseOverBudget(budget: Spending['budget'], credits: number): void {
  if (!budget || !overBudget(budget, credits).over) return;
  const { spentThisMonth, committed } = budget;
  throw new DubdeskError(
    'credits',
    `this batch needs about ${credits} credits, past the monthly budget of ${budget.credits} (${spentThisMonth} spent this month${committed ? `, ${committed} queued and not yet charged` : ''})`,
    { remedy: 'Raise the monthly budget in the settings, dub fewer files or languages, or add it anyway.' },
  );
}
