import { Command, CommanderError, Help, type Option, type OutputConfiguration } from 'commander';
import { DubdeskError } from '../../shared/contract/errors';
import { cleanServiceText } from '../../shared/text';
import { registerAccountCommands } from './commands/account';
import { registerAddCommands } from './commands/add';
import { registerAgainCommand } from './commands/again';
import { registerDoctorCommand } from './commands/doctor';
import { registerEstimateCommand } from './commands/estimate';
import { registerMoveCommand } from './commands/move';
import { registerPackageCommand } from './commands/package';
import { registerQcCommand } from './commands/qc';
import { registerPresetCommand } from './commands/preset';
import { registerSpendCommand } from './commands/spend';
import { registerRestoreCommand } from './commands/restore';
import { registerRunCommand } from './commands/run';
import { registerSandboxCommand } from './commands/sandbox';
import { registerCancelCommand } from './commands/cancel';
import { registerClearCommand } from './commands/clear';
import { registerLogsCommand } from './commands/logs';
import { registerPauseResumeCommands } from './commands/pause-resume';
import { registerRetryCommand } from './commands/retry';
import { registerStatusCommand } from './commands/status';
import { registerWatchCommand } from './commands/watch';
import { registerServeCommand } from './commands/serve';
import { describeError } from './errors';
import { ExitCode, exitCodeFor, exitCodesHelp } from './exit-codes';
import { wrapForTerminal } from './terminal-output';
import { loadTextWidth } from './text-width';
import { version } from './version';

/** The longest error line: commander quotes the argv, which may be anything (even a whole file). */
const ERROR_MAX = 400;

/**
 * Commander's error, which quotes the argv as typed, as one line safe for a terminal (controls and escape
 * sequences gone, line breaks in a value turned into spaces, capped), then its "did you mean" on its own.
 */
function oneLine(text: string): string {
  const m = /^([\s\S]*?)(\n\(Did you mean [^\n]*\?\))?\n?$/.exec(text);
  let suggestion = m?.[2] ? `\n${cleanServiceText(m[2].slice(1), ERROR_MAX)}` : '';
  // `add -take-2.mp4`: a file whose name starts with a dash reads as an option.
  const asFile = /unknown option '(-[^']*\.[A-Za-z0-9]{2,4})'/.exec(text)?.[1];
  if (asFile && !suggestion) suggestion = `\n(a file? write it as ./${cleanServiceText(asFile, ERROR_MAX)})`;
  return `${cleanServiceText(m?.[1] ?? text, ERROR_MAX)}${suggestion}\n`;
}

/**
 * Commander checks required options before unknown ones, so `add x.mp4 --too es` said that --to was
 * missing. The check moves to just before the action, which runs after the unknown-option check.
 */
function unknownOptionsFirst(cmd: Command): void {
  const required = cmd.options.filter((o) => o.mandatory);
  if (required.length === 0) return;
  for (const o of required) o.mandatory = false;
  cmd.hook('preAction', (self) => {
    for (const o of required)
      if (self.getOptionValue(o.attributeName()) === undefined)
        self.error(`error: required option '${o.flags}' not specified`, {
          code: 'commander.missingMandatoryOptionValue',
        });
  });
}

/** A flag that is off unless given needs no "(default: false)" in the help. */
function optionDescription(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  return option.defaultValue === false ? text.replace(/ ?\(default: false\)$/, '') : text;
}

/**
 * A usage error for a terminal, wrapped between words: commander finds most while it reads the line, before
 * the hook that wraps stderr (and loads wrap-ansi) runs, so commander's own wrap does it here.
 */
function forTerminal(text: string): string {
  const columns = process.stderr.isTTY ? process.stderr.columns : 0;
  if (!columns) return text;
  const help = Object.assign(new Help(), { minWidthToWrap: 20 });
  return help.boxWrap(text, columns - 1);
}

/** How wide a terminal lays out `--help`; a pipe gets one line per exit code, for grep. */
const helpWidth = (): number =>
  process.stdout.isTTY ? (process.stdout.columns ?? 80) : Number.POSITIVE_INFINITY;

/** Fewest columns a description keeps beside its command or option; with less, it goes under it. */
const DESCRIPTION_BESIDE = 40;
const ITEM_INDENT = '  ';
const DESCRIPTION_INDENT = '      ';

/**
 * A command or option with its description: beside it where there is room (commander's own layout), else,
 * in a narrow terminal, the description wrapped under it; commander would leave it unwrapped for the
 * terminal to cut at its edge.
 */
function formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const helpWidth = this.helpWidth ?? 80;
  const beside = helpWidth - termWidth - 2 - ITEM_INDENT.length;
  if (!description || beside >= DESCRIPTION_BESIDE)
    return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  const wrapped = helper.boxWrap(description, helpWidth - DESCRIPTION_INDENT.length);
  return `${ITEM_INDENT}${term}\n${DESCRIPTION_INDENT}${wrapped.replace(/\n/g, `\n${DESCRIPTION_INDENT}`)}`;
}

/**
 * The whole `dubdesk` command line, built fresh each time and never calling `process.exit`: parse errors
 * are thrown as CommanderErrors (see `runDubdesk`). `output` replaces where commander writes (tests).
 */
export function buildProgram(output: OutputConfiguration = {}): Command {
  const program = new Command('dubdesk')
    .description('Batch video dubbing: queue files, dub them into many languages, download the results.')
    .configureOutput({
      ...output,
      outputError: (str, write) => write(forTerminal(oneLine(str))),
    })
    .configureHelp({ optionDescription, formatItem, minWidthToWrap: 20 })
    .version(version, '-V, --version', 'print the version')
    .option(
      '--home <dir>',
      'data folder (queue database, settings); default: the desktop app’s (env DUBDESK_HOME)',
    )
    .option(
      '--base-url <url>',
      'the dubbing service’s address, e.g. https://dub.example.com (env DUBDESK_BASE_URL)',
    )
    .option(
      '--legacy-url <url>',
      'the legacy interface’s root address; its calls go to URL/v1/… (env DUBDESK_LEGACY_URL)',
    )
    // A usage error prints its one line and where to look, not the whole help.
    .showHelpAfterError('(see `dubdesk --help`)')
    .showSuggestionAfterError(true)
    .exitOverride()
    // Before any command's action (and only then: `--help` lays out no line of its own).
    .hook('preAction', async (_program, command) => {
      await loadTextWidth();
      wrapForTerminal(process.stderr, true);
      // What is printed for a program to read (JSON, CSV) stays as it is, in a terminal too.
      const { json, csv } = command.opts<{ json?: boolean; csv?: boolean }>();
      if (!json && !csv) wrapForTerminal(process.stdout, false);
    });

  registerAddCommands(program);
  registerRunCommand(program);
  registerStatusCommand(program);
  registerQcCommand(program);
  registerAgainCommand(program);
  registerPackageCommand(program);
  registerRetryCommand(program);
  registerCancelCommand(program);
  registerPauseResumeCommands(program);
  registerClearCommand(program);
  registerLogsCommand(program);
  registerMoveCommand(program);
  registerPresetCommand(program);
  registerSpendCommand(program);
  registerWatchCommand(program);
  registerEstimateCommand(program);
  registerAccountCommands(program);
  registerSandboxCommand(program);
  registerRestoreCommand(program);
  registerServeCommand(program);
  registerDoctorCommand(program);
  for (const c of program.commands) {
    c.showHelpAfterError(`(see \`dubdesk ${c.name()} --help\`)`);
    unknownOptionsFirst(c);
  }
  program.addHelpText('after', () => exitCodesHelp(helpWidth()));
  return program;
}

/**
 * Runs one command line (the arguments after `dubdesk`) and returns its exit code. Known failures become
 * one clear line; only a real bug prints a stack trace, and only with DUBDESK_DEBUG set.
 */
export async function runDubdesk(argv: readonly string[], program = buildProgram()): Promise<ExitCode> {
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return (process.exitCode ?? ExitCode.Ok) as ExitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    process.stderr.write(`dubdesk: ${describeError(e)}\n`);
    if (!(e instanceof DubdeskError) && e instanceof Error && process.env.DUBDESK_DEBUG)
      process.stderr.write(`${e.stack}\n`);
    return e instanceof DubdeskError ? exitCodeFor(e.code) : ExitCode.Failed;
  }
}
