import { Command, CommanderError } from 'commander';
import { registerSandboxCommand } from './commands/sandbox';
import { ExitCode } from './exit-codes';

const program = new Command('dubdesk')
  .description('Batch video dubbing: queue files, dub them into many languages, download the results.')
  .showHelpAfterError()
  .exitOverride();

registerSandboxCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  } else {
    console.error(`dubdesk: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = ExitCode.Failed;
  }
}
