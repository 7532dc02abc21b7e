import { Command, CommanderError } from 'commander';
import { ApiError } from '../engine/api/errors';
import { NewerDatabaseError } from '../engine/db/migrations';
import { ConfigError, UsageError } from '../engine/errors';
import { InputError } from '../engine/media/probe';
import { QueueBusyError } from '../engine/queue/run-lock';
import { registerAccountCommands } from './commands/account';
import { registerAddCommands } from './commands/add';
import { registerEstimateCommand } from './commands/estimate';
import { registerRunCommand } from './commands/run';
import { registerSandboxCommand } from './commands/sandbox';
import { registerStatusCommands } from './commands/status';
import { ExitCode } from './exit-codes';

const program = new Command('dubdesk')
  .description('Batch video dubbing: queue files, dub them into many languages, download the results.')
  .option(
    '--home <dir>',
    'data folder (queue database, settings); default: the desktop app’s (env DUBDESK_HOME)',
  )
  .option('--base-url <url>', 'the service’s {base_url} (env DUBDESK_BASE_URL)')
  .option(
    '--legacy-url <url>',
    'the legacy interface’s root; calls go to {legacy_api_url}/v1/… (env DUBDESK_LEGACY_URL)',
  )
  .showHelpAfterError()
  .exitOverride();

registerAddCommands(program);
registerRunCommand(program);
registerStatusCommands(program);
registerEstimateCommand(program);
registerAccountCommands(program);
registerSandboxCommand(program);

/** Known failures become one clear line and an exit code; only a real bug prints a stack trace. */
function exitCodeFor(e: unknown): ExitCode {
  if (e instanceof UsageError || e instanceof ConfigError || e instanceof InputError) return ExitCode.Usage;
  if (e instanceof ApiError && e.kind === 'auth') return ExitCode.Auth;
  if (e instanceof ApiError && e.kind === 'credits') return ExitCode.Credits;
  return ExitCode.Failed;
}

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  } else {
    const known =
      e instanceof UsageError ||
      e instanceof ConfigError ||
      e instanceof InputError ||
      e instanceof ApiError ||
      e instanceof NewerDatabaseError ||
      e instanceof QueueBusyError;
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`dubdesk: ${message}\n`);
    if (!known && e instanceof Error && process.env.DUBDESK_DEBUG) process.stderr.write(`${e.stack}\n`);
    process.exitCode = exitCodeFor(e);
  }
}
