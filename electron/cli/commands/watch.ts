import { findPreset, type BatchFlags } from './batch-options';
import { watchPresetOf } from './watch-preset';
import { plural } from '../../../shared/format';
import { resolve, sep } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DubdeskError } from '../../../shared/contract/errors';
import type { OutputSelection } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { WatchFile, WatchFolder, WatchPresetPatch } from '../../../shared/contract/watch';
import { withSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { creditCount, formatDuration, printJson, printable, table } from '../format';
import { earlierVersionWords, newerVersion, renamedFrom, renamedTo } from '../../../shared/watch-renames';
import {
  WatchApproveJson,
  WatchFilesJson,
  WatchFolderJson,
  WatchListJson,
  WatchReprocessJson,
} from '../json-shapes';
import { audioTrackOption, languageList, outputSelection, sendOption } from '../options';
import { addDeliverOptions } from '../deliver-options';

interface WatchFlags extends BatchFlags {
  recursive: boolean;
  after: 'leave' | 'move';
  creditLimit?: number | 'none';
  polling: 'auto' | 'always' | 'never';
  list?: boolean;
  files?: string;
  remove?: string;
  pause?: string;
  resume?: string;
  approve?: string;
  rescan?: string;
  reprocess?: string;
  json: boolean;
}

const ACTIONS = ['list', 'files', 'remove', 'pause', 'resume', 'approve', 'rescan', 'reprocess'] as const;

/** `none` stays a word here: commander turns a parser's null into an empty string. */
function creditLimit(raw: string): number | 'none' {
  if (raw.trim().toLowerCase() === 'none') return 'none';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError('expected a whole number of credits (or none for no limit)');
  return n;
}

/** The watched folder a user named: by its path (relative to here) or by its number. */
async function folderNamed(api: DubdeskApi, given: string): Promise<WatchFolder> {
  const { folders } = await api.listWatchFolders();
  const path = resolve(given);
  const found =
    folders.find((f) => f.path === path) ??
    (/^#?\d+$/.test(given) ? folders.find((f) => f.id === Number(given.replace('#', ''))) : undefined);
  if (!found)
    throw new DubdeskError('not-found', `${path} is not a watched folder`, {
      remedy: 'See `dubdesk watch --list`.',
    });
  return found;
}

/** The watched folder a file belongs to (where it was found, or `done/`/`failed/` inside it). */
async function folderOfFile(api: DubdeskApi, file: string): Promise<WatchFolder> {
  const path = resolve(file);
  const { folders } = await api.listWatchFolders();
  const found = folders
    .filter((f) => path.startsWith(`${f.path}${sep}`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (!found)
    throw new DubdeskError('not-found', `${path} is not in a watched folder`, {
      remedy: 'See `dubdesk watch --list`.',
    });
  return found;
}

/** The preset fields given on the command line (defaults included only when adding a folder). */
function presetFrom(flags: WatchFlags, cmd: Command, adding: boolean): WatchPresetPatch {
  const given = (name: string) => adding || cmd.getOptionValueSource(name) === 'cli';
  const p: WatchPresetPatch = {};
  if (flags.to) p.to = flags.to;
  if (given('from')) p.from = flags.from;
  if (given('studio')) p.studio = flags.studio;
  if (given('api')) p.api = flags.api;
  if (flags.out !== undefined) p.outDir = resolve(flags.out);
  if (given('outputs')) p.outputs = flags.outputs;
  if (given('naming')) p.naming = flags.naming;
  if (given('recursive')) p.recursive = flags.recursive;
  if (given('after')) p.after = flags.after;
  if (flags.creditLimit !== undefined)
    p.creditLimit = flags.creditLimit === 'none' ? null : flags.creditLimit;
  if (given('polling')) p.polling = flags.polling;
  if (given('package')) p.package = flags.package;
  if (given('subtitles')) p.subtitles = flags.subtitles;
  if (given('defaultAudio')) p.defaultAudio = flags.defaultAudio;
  if (given('loudness')) p.loudness = flags.loudness;
  if (flags.send) p.send = flags.send;
  if (flags.audioTrack) p.audioTrack = flags.audioTrack;
  return p;
}

function countsLine(f: WatchFolder): string {
  const c = f.counts;
  const parts = [
    `${c.waiting} waiting`,
    `${c.queued} queued`,
    `${c.working} working`,
    `${c.done} done`,
    `${c.failed} failed`,
  ];
  if (c.duplicates) parts.push(`${c.duplicates} duplicate`);
  if (c.attention) parts.push(`${c.attention} need attention`);
  if (c.awaitingApproval)
    parts.push(
      `${c.awaitingApproval} awaiting approval (${creditCount(f.awaitingCredits)} credits${f.awaitingUnknownLength ? `, ${f.awaitingUnknownLength} of unknown length` : ''})`,
    );
  return parts.join(', ');
}

function describeFolder(f: WatchFolder): string {
  const p = f.preset;
  const bits = [
    `→ ${p.to.join(', ')}`,
    `results in ${f.outDir}`,
    ...(p.recursive ? ['with subfolders'] : []),
    ...(p.after === 'move' ? ['originals move to done/ or failed/'] : []),
    ...(p.creditLimit !== null ? [`at most ${creditCount(p.creditLimit)} credits an hour by itself`] : []),
    ...(p.package !== 'none' ? [`one ${p.package.toUpperCase()} with every language per file`] : []),
    ...(f.polled ? [`polled: ${f.pollReason ?? 'yes'}`] : []),
  ];
  return printable(`#${f.id} ${f.path} ${bits.join('; ')}`);
}

function printFolders(folders: readonly WatchFolder[]): void {
  if (folders.length === 0) {
    process.stdout.write('No watched folders. Add one with `dubdesk watch DIR --to es,fr`.\n');
    return;
  }
  const rows = [['ID', 'FOLDER', 'STATUS', 'LANGS', 'FILES']];
  for (const f of folders)
    rows.push([String(f.id), printable(f.path), f.status, f.preset.to.join(','), countsLine(f)]);
  process.stdout.write(`${table(rows)}\n`);
  for (const f of folders)
    if (f.statusMessage) process.stdout.write(`\n#${f.id}: ${printable(f.statusMessage)}\n`);
}

async function printFiles(api: DubdeskApi, folder: WatchFolder, json: boolean): Promise<void> {
  const files: WatchFile[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listWatchFiles({ id: folder.id, offset, limit: 500 });
    files.push(...page.files);
    if (files.length >= page.total || page.files.length === 0) break;
  }
  if (json) return printJson(WatchFilesJson.parse({ folder: folder.id, files }));
  if (files.length === 0) {
    process.stdout.write('No files seen in this folder yet.\n');
    return;
  }
  const now = Date.now();
  const dir = printable(folder.path);
  const approveHint = `(\`dubdesk watch --approve ${dir}\`; \`dubdesk watch ${dir} --credit-limit N\`: credits an hour, none for no limit)`;
  const rows = [['FILE', 'VERSION', 'STATUS', 'JOBS', 'NOTE']];
  for (const f of files) {
    // The engine's remedy says what (approve, raise the limit, add credits); the commands say how here.
    const credits = `${f.problem?.remedy ?? ''} ${approveHint}`.trim();
    let note = f.problem ? describeError(f.problem, { credits }) : '';
    const from = renamedFrom(f, files);
    const to = renamedTo(f, files);
    if (from) note = `renamed from ${from.name}: its results keep their names, nothing charged`;
    else if (f.duplicateOf) note = `copied from ${f.duplicateOf} (same content), at no charge`;
    else if (f.status === 'duplicate')
      note =
        'the same content as a file already dubbed with this preset: its results are copied here, at no charge';
    if (newerVersion(f, files)) note = earlierVersionWords(f);
    if (f.movedTo) note = `moved to ${f.movedTo}`;
    if (f.gone)
      note = to ? `no longer there: renamed to ${to.name}` : `no longer there${note ? `; ${note}` : ''}`;
    if (f.nextCheckAt) {
      const wait = formatDuration(Math.max(0, (Date.parse(f.nextCheckAt) - now) / 1000));
      // A note that ends its own sentence is followed by a new one, not by "; ".
      if (!note) note = `looked at again in ${wait}`;
      else if (/[.!?]$/.test(note)) note = `${note} Looked at again in ${wait}.`;
      else note = `${note}; looked at again in ${wait}`;
    }
    rows.push([
      printable(f.name),
      String(f.version),
      f.status,
      f.jobIds.map((id) => `#${id}`).join(' '),
      printable(note),
    ]);
  }
  process.stdout.write(`${table(rows)}\n`);
}

function whoWatches(f: WatchFolder): void {
  if (f.status === 'inactive')
    process.stderr.write(
      'No Dubdesk is working the queue right now: files are taken once one runs (the desktop app, `dubdesk serve`, or `dubdesk run`).\n',
    );
}

async function act(
  api: DubdeskApi,
  flags: WatchFlags,
  cmd: Command,
  dir: string | undefined,
): Promise<ExitCode> {
  if (flags.list) {
    const { folders } = await api.listWatchFolders();
    if (flags.json) printJson(WatchListJson.parse({ folders }));
    else printFolders(folders);
    return ExitCode.Ok;
  }
  if (flags.files) {
    await printFiles(api, await folderNamed(api, flags.files), flags.json);
    return ExitCode.Ok;
  }
  if (flags.remove) {
    const f = await folderNamed(api, flags.remove);
    await api.removeWatchFolder({ id: f.id });
    process.stderr.write(`No longer watching ${printable(f.path)} (its jobs and files stay).\n`);
    if (flags.json) printJson(WatchFolderJson.parse(f));
    return ExitCode.Ok;
  }
  if (flags.pause || flags.resume) {
    const f = await folderNamed(api, (flags.pause ?? flags.resume) as string);
    const after = await api.updateWatchFolder({ id: f.id, paused: Boolean(flags.pause) });
    process.stderr.write(
      after.paused
        ? `Paused ${printable(f.path)}: files that arrive meanwhile are taken on resume.\n`
        : `Watching ${printable(f.path)} again.\n`,
    );
    if (flags.json) printJson(WatchFolderJson.parse(after));
    return ExitCode.Ok;
  }
  if (flags.approve) {
    const f = await folderNamed(api, flags.approve);
    const r = await api.approveWatchFolder({ id: f.id });
    process.stderr.write(
      r.queued
        ? `${approvedLine(r.queued, r.credits, r.unknownLength ?? 0)}${r.jobIds.length ? `: ${plural(r.jobIds.length, 'job')} queued` : ''}.\n`
        : `Nothing in ${printable(f.path)} awaits approval.\n`,
    );
    if (flags.json) printJson(WatchApproveJson.parse(r));
    return ExitCode.Ok;
  }
  if (flags.rescan) {
    const f = await api.rescanWatchFolder({ id: (await folderNamed(api, flags.rescan)).id });
    process.stderr.write(`${printable(f.path)} is scanned again within seconds.\n`);
    whoWatches(f);
    if (flags.json) printJson(WatchFolderJson.parse(f));
    return ExitCode.Ok;
  }
  if (flags.reprocess) {
    const f = await folderOfFile(api, flags.reprocess);
    const file = await api.reprocessWatchFile({ id: f.id, path: resolve(flags.reprocess) });
    process.stderr.write(
      file.jobIds.length && (file.status === 'queued' || file.status === 'working')
        ? `Queued ${printable(file.name)} again: ${file.jobIds.length === 1 ? 'job' : 'jobs'} ${file.jobIds.map((id) => `#${id}`).join(' ')} (charged again).\n`
        : `${printable(file.name)} is checked again now (${file.status}).\n`,
    );
    if (flags.json) printJson(WatchReprocessJson.parse(file));
    return ExitCode.Ok;
  }
  if (!dir) {
    process.stderr.write('dubdesk watch: name a folder to watch, or --list. See `dubdesk watch --help`.\n');
    return ExitCode.Usage;
  }
  const { folders } = await api.listWatchFolders();
  const existing = folders.find((f) => f.path === resolve(dir));
  let folder: WatchFolder;
  // A named preset fills what the flags typed beside it do not say.
  const named = flags.preset ? watchPresetOf(await findPreset(api, flags.preset)) : null;
  if (existing) {
    const patch = { ...named, ...presetFrom(flags, cmd, false) };
    folder = await api.updateWatchFolder({ id: existing.id, preset: patch });
    process.stderr.write(
      Object.keys(patch).length
        ? `Updated ${describeFolder(folder)}${folder.presetVersion !== existing.presetVersion ? ' (new preset version: new files are dubbed with it)' : ''}.\n`
        : `Already watching ${describeFolder(folder)}.\n`,
    );
  } else {
    const to = flags.to ?? named?.to;
    if (!to) {
      process.stderr.write(
        'dubdesk watch: name the target languages with --to (e.g. --to es,fr) or a --preset.\n',
      );
      return ExitCode.Usage;
    }
    const preset = named ? { ...named, ...presetFrom(flags, cmd, false) } : presetFrom(flags, cmd, true);
    folder = await api.addWatchFolder({ path: resolve(dir), preset: { ...preset, to } });
    process.stderr.write(`Watching ${describeFolder(folder)}.\n`);
  }
  whoWatches(folder);
  if (flags.json) printJson(WatchFolderJson.parse(folder));
  return ExitCode.Ok;
}

export function registerWatchCommand(program: Command): void {
  addDeliverOptions(program.command('watch'))
    .description(
      'Watch a folder: every video or audio file that lands in it is dubbed into its languages (by whichever Dubdesk works the queue)',
    )
    .argument('[dir]', 'the folder to watch (again: change its settings)')
    .option('--to <langs>', 'target languages, comma-separated (e.g. es,fr)', languageList)
    .option(
      '--preset <name>',
      'take the languages, quality, outputs, folder and what is sent from a named preset',
    )
    .option('--from <lang>', 'source language, or auto to detect it', 'auto')
    .option('--studio', 'studio quality (costs 2x credits)', false)
    .option('--no-studio', 'standard quality (to change a watched folder back)')
    .addOption(
      new Option('--api <generation>', 'service generation').choices(['v2', 'v1', 'legacy']).default('v2'),
    )
    .option('--out <dir>', 'folder for the results (default: `dubbed` inside the watched folder)')
    .option(
      '--outputs <list>',
      'what to download: default, all, or a list',
      outputSelection,
      'default' as OutputSelection,
    )
    .addOption(
      new Option('--naming <style>', 'suffix: Movie.es.mp4; folders: es/Movie.mp4')
        .choices(['suffix', 'folders'])
        .default('suffix'),
    )
    .addOption(sendOption())
    .addOption(audioTrackOption())
    .option('--recursive', 'take files in subfolders too', false)
    .option('--no-recursive', 'only the folder’s own files (to change a watched folder back)')
    .addOption(
      new Option('--after <what>', 'leave the originals, or move them to done/ (or failed/) once dubbed')
        .choices(['leave', 'move'])
        .default('leave'),
    )
    .option(
      '--credit-limit <n>',
      'credits the folder may spend by itself in an hour; more waits for --approve (none: no limit)',
      creditLimit,
    )
    .addOption(
      new Option('--polling <when>', 'find changes by polling (auto: on network shares and removable drives)')
        .choices(['auto', 'always', 'never'])
        .default('auto'),
    )
    .option('--list', 'list the watched folders, their status and counts', false)
    .option('--files <dir>', 'list the files seen in a watched folder and where each stands')
    .option('--remove <dir>', 'stop watching a folder (its jobs and files stay)')
    .option('--pause <dir>', 'pause a watched folder')
    .option('--resume <dir>', 'resume a paused folder (what arrived meanwhile is taken)')
    .option('--approve <dir>', 'queue the files of a folder that wait for approval')
    .option('--rescan <dir>', 'look through the whole folder again now')
    .option(
      '--reprocess <file>',
      'dub a file of a watched folder again, even if it was dubbed before (charged again)',
    )
    .option('--json', 'print the folders or files as JSON on stdout (see docs/cli-json.md)', false)
    .action(async (dir: string | undefined, flags: WatchFlags, cmd: Command) => {
      const chosen = ACTIONS.filter((a) => flags[a]);
      if (chosen.length > 1 || (chosen.length === 1 && dir)) {
        process.stderr.write(
          `dubdesk watch: one thing at a time: a folder to watch, or one of ${ACTIONS.map((a) => `--${a}`).join(', ')}.\n`,
        );
        process.exitCode = ExitCode.Usage;
        return;
      }
      process.exitCode = await withSession(cmd, { needsService: false, quiet: true }, ({ api }) =>
        act(api, flags, cmd, dir),
      );
    });
}

/** What was approved and what it costs; files whose length cannot be read cost what the service measures. */
function approvedLine(files: number, credits: number, unknownLength: number): string {
  const measured = '(charged what the service measures)';
  if (unknownLength === 0) return `Approved ${plural(files, 'file')}, about ${creditCount(credits)} credits`;
  if (unknownLength === files) return `Approved ${plural(files, 'file')} of unknown length ${measured}`;
  return `Approved ${plural(files, 'file')}, about ${creditCount(credits)} credits and ${unknownLength} of unknown length ${measured}`;
}
