import { basename } from 'node:path';
import type { ContractError } from '../../../shared/contract/errors';
import { overBudget, pastBudgetWords } from '../../../shared/contract/spending';
import type { WatchFolderRow } from '../db/watch';
import type { WatchEnv } from './env';

const HOUR_MS = 3_600_000;

/**
 * The spending guard: why these files must wait for approval, or null. They wait behind files already
 * waiting (in order), when they and what the folder queued by itself in the last hour would pass its
 * credit limit, and when they cost more than the balance.
 */
export async function guard(
  env: WatchEnv,
  folder: WatchFolderRow,
  batch: readonly { credits: number }[],
): Promise<ContractError | null> {
  const credits = batch.reduce((n, p) => n + p.credits, 0);
  const files = `${batch.length} file${batch.length === 1 ? '' : 's'}`;
  const remedy = 'Approve the folder to queue them, or raise its credit limit.';
  const waiting = env.watch.links.awaiting(folder.id);
  if (waiting.files > 0)
    return {
      code: 'credits',
      message: `waits behind ${waiting.files} file(s) of this folder awaiting approval`,
      remedy,
    };
  const limit = folder.preset.creditLimit;
  if (limit !== null) {
    const spent = env.watch.links.creditsSince(folder.id, Date.now() - HOUR_MS);
    if (spent + credits > limit)
      return {
        code: 'credits',
        message: `${files} would cost about ${credits} credits; with the ${spent} this folder spent in the last hour that is over its limit of ${limit} per hour`,
        remedy,
      };
  }
  if (credits === 0) return null;
  const budget = env.budget?.() ?? null;
  if (budget && overBudget(budget, credits).over)
    return {
      code: 'credits',
      message: `${files} would cost about ${credits} credits, ${pastBudgetWords(budget, credits)}`,
      remedy:
        'Raise the monthly budget (Settings → Spending, or `dubdesk spend --budget N`), or approve the folder to queue them anyway.',
    };
  const balance = await env.balance();
  if (balance !== null && (balance <= 0 || credits > balance))
    return {
      code: 'credits',
      message: `${files} would cost about ${credits} credits; the balance is ${balance}`,
      remedy: 'Add credits, then approve the folder to queue them.',
    };
  return null;
}

/**
 * A file that does not say how long it is (a WebM recorded in a browser, a stream written through a pipe):
 * what it costs is known only once the service has measured and charged it, so it is never taken as free.
 * It waits for approval; approved, it is charged what the service measures, and that charge counts.
 */
export function unknownCost(path: string): ContractError {
  return {
    code: 'credits',
    message: `${basename(path)} does not say how long it is, so what it would cost is not known until the service measures it`,
    remedy: 'Approve the folder to queue it: it is charged what the service measures.',
  };
}
