/** One line of `dubdesk doctor` (and of the app's "Copy diagnostics"): what was checked, and the fix. */
export interface Check {
  /** What was looked at, as a user names it ("Data folder"). */
  title: string;
  ok: boolean;
  /** What was found: a version, a path, a count. */
  detail: string;
  /** What to do about a failure, in words any face can show. */
  fix?: string;
  /** What a passing line should still tell: what happens later, and how to be ready for it. */
  note?: string;
}

export const pass = (title: string, detail: string): Check => ({ title, ok: true, detail });
export const fail = (title: string, detail: string, fix: string): Check => ({
  title,
  ok: false,
  detail,
  fix,
});

export const note = (check: Check, text: string): Check => ({ ...check, note: text });

/** A check not run because an earlier one failed: a failure too, so the exit code stays honest. */
export const skipped = (title: string, because: string): Check =>
  fail(title, `not checked: ${because}`, 'Fix the failures above, then run the check again.');

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 300);

/** `✓ Title: detail` (and its note), or `✗ Title: detail` and the fix on the next line. */
export function formatChecks(checks: readonly Check[]): string {
  return checks
    .map((c) =>
      c.ok
        ? `✓ ${c.title}: ${c.detail}${c.note ? `\n    note: ${c.note}` : ''}`
        : `✗ ${c.title}: ${c.detail}\n    fix: ${c.fix ?? 'see above'}`,
    )
    .join('\n');
}
