// `npm test` runs the tests tier by tier, fastest first, and stops at the first tier that fails, naming it.
// The tiers are the projects of test/vitest.config.ts. Arguments pick tiers (`npm test -- integration`; none:
// all of them); what follows `--` goes to vitest (`npm test -- unit -- test/unit/naming.test.ts`).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TIERS = [
  // unit-mocking: the unit files that mock modules, each in a process of its own (test/vitest.config.ts).
  { project: 'unit', also: ['unit-mocking'], says: 'unit and contract' },
  {
    project: 'integration',
    says: 'the engine, CLI, serve and desktop shell against the sandbox',
    // Most of these files wait on sandboxes, child processes and settle times, not on the CPU: four at a
    // time keep two cores busy where two left them half idle.
    workers: 4,
  },
  { project: 'e2e', says: 'the app in Chromium and in Electron, the chaos run, packaging' },
];

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const wanted = dashes < 0 ? args : args.slice(0, dashes);
const filters = dashes < 0 ? [] : args.slice(dashes + 1);
const unknown = wanted.filter((w) => !TIERS.some((t) => t.project === w));
if (unknown.length) {
  process.stderr.write(
    `npm test: no tier named ${unknown.join(', ')}; the tiers are ${TIERS.map((t) => t.project).join(', ')}.\n`,
  );
  process.exit(2);
}
const tiers = wanted.length ? TIERS.filter((t) => wanted.includes(t.project)) : TIERS;
const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

for (const [i, tier] of tiers.entries()) {
  const projects = [tier.project, ...(tier.also ?? [])].flatMap((p) => ['--project', p]);
  const title = `tier ${i + 1} of ${tiers.length}: ${tier.project} (${tier.says})`;
  process.stdout.write(`\n=== npm test, ${title}\n\n`);
  const run = spawnSync(
    process.execPath,
    [
      vitest,
      'run',
      '--config',
      'test/vitest.config.ts',
      ...projects,
      ...(tier.workers ? [`--maxWorkers=${tier.workers}`] : []),
      ...(filters.length ? ['--passWithNoTests', ...filters] : []),
    ],
    { stdio: 'inherit', cwd: root },
  );
  if (run.status !== 0) {
    const skipped = tiers.slice(i + 1).map((t) => t.project);
    process.stderr.write(
      `\n=== npm test FAILED in ${title}` +
        (skipped.length ? `; not run: ${skipped.join(', ')}` : '') +
        `\n    again: npx vitest run --config test/vitest.config.ts ${projects.join(' ')}\n`,
    );
    process.exit(run.status ?? 1);
  }
  process.stdout.write(`\n=== npm test, ${title}: passed\n`);
}
