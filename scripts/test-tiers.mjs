// `npm test` runs the checks and the tests at once and fails when any of them failed, naming what failed: the
// type check, ESLint and Prettier (each one process) beside one vitest run of the tiers, so the files that wait
// on sandboxes, child processes and browsers, the checks and the unit files fill each other's idle time. Run
// one after another, the unit tier's last files and the checks' last minute left a core idle, and the second
// run started its sandboxes, Chromium and renderer build only after.
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
    waits: true,
  },
  { project: 'e2e', says: 'the app in Chromium and in Electron, the chaos run, packaging', waits: true },
];
/**
 * Most integration and e2e files wait on sandboxes, child processes, settle times and Chromium, not on the CPU:
 * four files at a time keep two cores busy where two left them half idle.
 */
const WAITING_WORKERS = 4;

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
const tiers = TIERS.filter((t) => !wanted.length || wanted.includes(t.project));
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

const projects = tiers.flatMap((t) => [t.project, ...(t.also ?? [])]).flatMap((p) => ['--project', p]);
const title = ['checks', ...tiers.map((t) => t.project)].join(' + ');
process.stdout.write(
  `\n=== npm test: ${title}\n` +
    `    checks: ${CHECKS.map((c) => c.name).join(', ')}\n` +
    tiers.map((t) => `    ${t.project}: ${t.says}\n`).join('') +
    '\n',
);
const checks = CHECKS.map((c) => run(c.args, true).then((r) => ({ ...r, name: c.name })));
const tests = run(
  [
    vitest,
    'run',
    '--config',
    'test/vitest.config.ts',
    ...projects,
    ...(tiers.some((t) => t.waits) ? [`--maxWorkers=${WAITING_WORKERS}`] : []),
    ...(filters.length ? ['--passWithNoTests', ...filters] : []),
  ],
  false,
);
const testsPassed = (await tests).ok;
const failedChecks = (await Promise.all(checks)).filter((c) => !c.ok);
for (const c of failedChecks) process.stderr.write(`\n=== ${c.name} failed (${c.how}):\n${c.output}`);
const failed = [...failedChecks.map((c) => c.name), ...(testsPassed ? [] : tiers.map((t) => t.project))];
if (failed.length) {
  process.stderr.write(
    `\n=== npm test FAILED: ${failed.join(', ')}` +
      (testsPassed
        ? ''
        : `\n    again: npx vitest run --config test/vitest.config.ts ${projects.join(' ')}`) +
      '\n',
  );
  process.exit(1);
}
process.stdout.write(`\n=== npm test: ${title}: passed\n`);
