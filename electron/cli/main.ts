import { Command, CommanderError } from 'commander';
import { DubdeskError } from '../../shared/contract/errors';
import { registerAccountCommands } from './commands/account';
import { registerAddCommands } from './commands/add';
import { registerEstimateCommand } from './commands/estimate';
import { registerRunCommand } from './commands/run';
import { registerSandboxCommand } from './commands/sandbox';
import { registerStatusCommands } from './commands/status';
import { registerWatchCommand } from './commands/watch';
import { registerServeCommand } from './serve/command';
import { describeError } from './errors';
import { ExitCode, exitCodeFor } from './exit-codes';
import { version } from './version';

const program = new Command('dubdesk')
  .description('Batch video dubbing: queue files, dub them into many languages, download the results.')
  .version(version, '-V, --version', 'print the version')
  .option(
    '--home <dir>',
    'data folder (queue database, settings); default: the desktop app’s (env DUBDESK_HOME)',
  )
  .option('--base-url <url>', 'the service’s {base_url} (env DUBDESK_BASE_URL)')
  .option(
    '--legacy-url <url>',
    'the legacy interface’s root; calls go to {legacy_api_url}/v1/… (env DUBDESK_LEGACY_URL)',
  )
  // A usage error prints its one line and where to look, not the whole help.
  .showHelpAfterError('(add --help for usage)')
  .showSuggestionAfterError(true)
  .exitOverride();

registerAddCommands(program);
registerRunCommand(program);
registerStatusCommands(program);
registerWatchCommand(program);
registerEstimateCommand(program);
registerAccountCommands(program);
registerSandboxCommand(program);
registerServeCommand(program);
for (const c of program.commands) c.showHelpAfterError(`(see \`dubdesk ${c.name()} --help\`)`).exitOverride();

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  } else {
    // Known failures become one clear line and an exit code; only a real bug prints a stack trace.
    process.stderr.write(`dubdesk: ${describeError(e)}\n`);
    const bug = !(e instanceof DubdeskError);
    if (bug && e instanceof Error && process.env.DUBDESK_DEBUG) process.stderr.write(`${e.stack}\n`);
    process.exitCode = e instanceof DubdeskError ? exitCodeFor(e.code) : ExitCode.Failed;
  }
}
