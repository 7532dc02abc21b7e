import { DubdeskError } from '../../../../shared/contract/errors';
import { overBudget, pastBudgetWords, type Spending } from '../../../../shared/contract/spending';

/** What the estimate says of the monthly budget for a batch of `credits`. */
export function budgetCheck(budget: Spending['budget'], credits: number) {
  const { over, left } = overBudget(budget, credits);
  return { overBudget: over, budgetLeft: left, budget };
}

/** How far past the monthly budget a batch of `credits` goes (counting only its own share), 0 within it. */
export function pastBudgetBy(budget: Spending['budget'], credits: number): number {
  const { over, left } = overBudget(budget, credits);
  return over && left !== null ? credits - Math.max(0, left) : 0;
}

/**
 * `add` refuses a batch past the monthly budget unless told to go ahead (`force`). The way out is the budget
 * or going ahead, never "add credits" (the balance may be plenty): `field` tells faces it is the budget.
 */
export function refuseOverBudget(budget: Spending['budget'], credits: number): void {
  if (!budget || !overBudget(budget, credits).over) return;
  throw new DubdeskError(
    'credits',
    `this batch needs about ${credits} credits, ${pastBudgetWords(budget, credits)}`,
    {
      field: 'budget',
      remedy: 'Raise the monthly budget in Settings → Spending, or add this batch anyway.',
    },
  );
}
