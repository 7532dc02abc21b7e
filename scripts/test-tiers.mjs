// `npm test` runs the checks and the tests in two stages and stops at the first stage that fails, naming what
// failed. Stage 1: the type check, ESLint and Prettier beside the unit tier (each check is one process on one
// core, the unit tier's workers use the rest). Stage 2: the integration and e2e tiers in one vitest run, so the
// files that wait on sandboxes, child processes and browsers fill each other's idle time.
// The tiers are the projects of test/vitest.config.ts. Arguments pick tiers (`npm test -- integration`; none:
// all of them); what follows `--` goes to vitest (`npm test -- unit -- test/unit/naming.test.ts`). The checks
// run whichever tiers are picked.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TIERS = [
  // unit-mocking: the unit files that mock modules, each in a process of its own (test/vitest.config.ts).
  { project: 'unit', also: ['unit-mocking'], says: 'unit and contract' },
  // integration-alone: the integration files that change what a process shares, each in a process of its own.
  {
    project: 'integration',
    also: ['integration-alone'],
    says: 'the engine, CLI, serve and desktop shell against the sandbox',
  },
  { project: 'e2e', says: 'the app in Chromium and in Electron, the chaos run, packaging' },
];
/**
 * The stages' tiers. Most integration and e2e files wait on sandboxes, child processes, settle times and
 * Chromium, not on the CPU: four files at a time keep two cores busy where two left them half idle.
 */
const STAGES = [
  { tiers: ['unit'], withChecks: true },
  { tiers: ['integration', 'e2e'], workers: 4 },
];

const require = createRequire(import.meta.url);
const bin = (pkg, path) => join(dirname(require.resolve(`${pkg}/package.json`)), path);
/** `npm run typecheck` and `npm run lint`, each a process of its own. */
const CHECKS = [
  { name: 'typecheck (tsc -b)', args: [bin('typescript', 'bin/tsc'), '-b'] },
  { name: 'ESLint', args: [bin('eslint', 'bin/eslint.js'), '--max-warnings', '0', '.'] },
  { name: 'Prettier', args: [bin('prettier', 'bin/prettier.cjs'), '--check', '.'] },
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
const picked = (project) => !wanted.length || wanted.includes(project);
const stages = STAGES.map((s) => ({
  ...s,
  tiers: TIERS.filter((t) => s.tiers.includes(t.project) && picked(t.project)),
})).filter((s) => s.tiers.length || s.withChecks);
const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = bin('vitest', 'vitest.mjs');

/** Runs a child to its end; `quiet` keeps its output to print after (a check beside the tests' own output). */
function run(argv, quiet) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, {
      cwd: root,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('close', (code, signal) => resolve({ ok: code === 0, how: signal ?? `code ${code}`, output }));
  });
}

for (const [i, stage] of stages.entries()) {
  const projects = stage.tiers
    .flatMap((t) => [t.project, ...(t.also ?? [])])
    .flatMap((p) => ['--project', p]);
  const names = [...(stage.withChecks ? ['checks'] : []), ...stage.tiers.map((t) => t.project)];
  const title = `stage ${i + 1} of ${stages.length}: ${names.join(' + ')}`;
  process.stdout.write(
    `\n=== npm test, ${title}\n` +
      (stage.withChecks ? `    checks: ${CHECKS.map((c) => c.name).join(', ')}\n` : '') +
      stage.tiers.map((t) => `    ${t.project}: ${t.says}\n`).join('') +
      '\n',
  );
  const checks = stage.withChecks
    ? CHECKS.map((c) => run(c.args, true).then((r) => ({ ...r, name: c.name })))
    : [];
  const tests = stage.tiers.length
    ? run(
        [
          vitest,
          'run',
          '--config',
          'test/vitest.config.ts',
          ...projects,
          ...(stage.workers ? [`--maxWorkers=${stage.workers}`] : []),
          ...(filters.length ? ['--passWithNoTests', ...filters] : []),
        ],
        false,
      )
    : Promise.resolve({ ok: true });
  const testsPassed = (await tests).ok;
  const failedChecks = (await Promise.all(checks)).filter((c) => !c.ok);
  for (const c of failedChecks) process.stderr.write(`\n=== ${c.name} failed (${c.how}):\n${c.output}`);
  const failed = [
    ...failedChecks.map((c) => c.name),
    ...(testsPassed ? [] : stage.tiers.map((t) => t.project)),
  ];
  if (failed.length) {
    const skipped = stages.slice(i + 1).flatMap((s) => s.tiers.map((t) => t.project));
    process.stderr.write(
      `\n=== npm test FAILED in ${title}: ${failed.join(', ')}` +
        (skipped.length ? `; not run: ${skipped.join(', ')}` : '') +
        (testsPassed
          ? ''
          : `\n    again: npx vitest run --config test/vitest.config.ts ${projects.join(' ')}`) +
        '\n',
    );
    process.exit(1);
  }
  process.stdout.write(`\n=== npm test, ${title}: passed\n`);
}
