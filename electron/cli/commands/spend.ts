import { InvalidArgumentError, Option, type Command } from 'commander';
import { plural } from '../../../shared/format';
import {
  chargedSince,
  groupSpending,
  localTime,
  SPEND_GROUPS,
  totalCredits,
  type SpendGroup,
  type Spending,
} from '../../../shared/contract/spending';
import { spendLinesCsv, spendRowsCsv } from '../../../shared/spending-csv';
import { BudgetSchema, MAX_BUDGET } from '../../../shared/contract/settings';
import { withSession } from '../context';
import { creditCount, printable, printJson, table } from '../format';
import { sinceDate } from '../options';

interface SpendFlags {
  budget?: number | 'none';
  by: SpendGroup;
  since?: string;
  csv: boolean;
  json: boolean;
}

/**
 * `--budget`: digits only (no `1e99`, no `1.5`, nothing empty), at most MAX_BUDGET; `none` takes it away
 * (said as a word: commander turns a parser's null into '').
 */
function budgetValue(raw: string): number | 'none' {
  const text = raw.trim();
  if (text.toLowerCase() === 'none') return 'none';
  const parsed = BudgetSchema.safeParse(/^\d+$/.test(text) ? Number(text) : Number.NaN);
  if (!parsed.success)
    throw new InvalidArgumentError(
      `expected a whole number of credits from 0 to ${creditCount(MAX_BUDGET)}, or none for no budget (e.g. --budget 5000)`,
    );
  return parsed.data;
}

function budgetLine(budget: Spending['budget']): string | null {
  if (!budget) return null;
  const left = budget.credits - budget.spentThisMonth - budget.committed;
  return `Monthly budget ${creditCount(budget.credits)}: ${creditCount(budget.spentThisMonth)} spent this month, ${creditCount(budget.committed)} queued, ${creditCount(Math.max(0, left))} left${left < 0 ? ` (${creditCount(-left)} over)` : ''}.`;
}

/** What the report prints: one row per charged job, or one line per day, month, batch, folder or language. */
function print(spending: Spending, flags: SpendFlags): void {
  const rows = chargedSince(spending.rows, flags.since ?? null);
  const total = totalCredits(rows);
  if (flags.by === 'job') {
    if (flags.csv) return void process.stdout.write(spendRowsCsv(rows));
    if (flags.json) return printJson({ by: 'job', rows, total, budget: spending.budget });
    if (rows.length)
      process.stdout.write(
        `${table([
          ['date', 'job', 'file', 'language', 'credits'],
          ...rows.map((r) => [
            localTime(r.chargedAt),
            `#${r.jobId}`,
            printable(r.sourceName),
            r.language,
            creditCount(r.credits),
          ]),
        ])}\n`,
      );
  } else {
    const lines = groupSpending(rows, flags.by);
    if (flags.csv) return void process.stdout.write(spendLinesCsv(lines, flags.by));
    if (flags.json) return printJson({ by: flags.by, lines, total, budget: spending.budget });
    if (lines.length)
      process.stdout.write(
        `${table([[flags.by, 'jobs', 'credits'], ...lines.map((l) => [printable(l.key), String(l.jobs), creditCount(l.credits)])])}\n`,
      );
  }
  process.stdout.write(
    rows.length
      ? `Total: ${creditCount(total)} credits for ${plural(rows.length, 'charged job')}${flags.since ? ` since ${flags.since}` : ''}.\n`
      : `Nothing charged${flags.since ? ` since ${flags.since}` : ' yet'}.\n`,
  );
  const budget = budgetLine(spending.budget);
  if (budget) process.stdout.write(`${budget}\n`);
}

export function registerSpendCommand(program: Command): void {
  program
    .command('spend')
    .description('What the service charged: per job, or per day, month, batch, folder or language')
    .addOption(
      new Option('--by <what>', 'one line per job, day, month, batch, folder or language')
        .choices([...SPEND_GROUPS])
        .default('job'),
    )
    .option('--since <date>', 'only charges from this day on (e.g. 2026-11-01, local time)', sinceDate)
    .addOption(new Option('--csv', 'print CSV (a header, then one line per row) on stdout').conflicts('json'))
    .option('--json', 'print JSON on stdout', false)
    .option('--budget <credits>', 'set the monthly budget (none: no budget)', budgetValue)
    .action(async (flags: SpendFlags, cmd: Command) => {
      await withSession(cmd, { needsService: false, quiet: flags.json || flags.csv }, async ({ api }) => {
        if (flags.budget !== undefined)
          await api.setSettings({ monthlyBudget: flags.budget === 'none' ? null : flags.budget });
        print(await api.spending({ since: null }), { ...flags, csv: flags.csv ?? false });
      });
    });
}
