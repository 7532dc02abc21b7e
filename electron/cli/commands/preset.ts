import type { Command } from 'commander';
import type { Preset } from '../../../shared/contract/presets';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { printable, printJson, table } from '../format';
import { batchOptionFlags } from './add';
import type { AddFlags } from './batch-options';
import { batchOptions, findPreset } from './batch-options';

/** A preset's options in a few words: `de, it · studio · folders · out /x`. */
function summary(p: Preset): string {
  const o = p.options;
  const parts = [o.to.join(', ')];
  if (o.from !== 'auto') parts.push(`from ${o.from}`);
  if (o.studio) parts.push('studio');
  if (o.api !== 'v2') parts.push(o.api);
  if (o.outputs !== 'default') parts.push(`outputs ${o.outputs === 'all' ? 'all' : o.outputs.join(',')}`);
  if (o.naming !== 'suffix') parts.push(`a folder per language`);
  if (o.outDir) parts.push(`into ${o.outDir}`);
  if (o.send) parts.push(o.send === 'file' ? 'sends the whole file' : 'sends the sound alone');
  if (o.uploadOnce !== 'auto') parts.push(o.uploadOnce ? 'uploads once' : 'uploads once per language');
  parts.push(...deliverWords(o));
  return printable(parts.join(' · '));
}

/** What a preset hands on besides each language's files, where it is not the default. */
function deliverWords(o: Preset['options']): string[] {
  const parts: string[] = [];
  if (o.package !== 'none') parts.push(`one ${o.package.toUpperCase()} with every language`);
  if (o.subtitles.join(',') !== 'vtt') parts.push(`subtitles ${o.subtitles.join(', ')}`);
  if (o.defaultAudio !== 'original') parts.push(`the package starts in ${o.defaultAudio}`);
  if (o.loudness !== 'broadcast') parts.push(`QC to web loudness (-14 LUFS)`);
  return parts;
}

function show(p: Preset): void {
  process.stdout.write(`${printable(p.name)}\n`);
  const rows = Object.entries(p.options).map(([k, v]) => [
    `  ${k}`,
    printable(Array.isArray(v) ? v.join(', ') : String(v ?? '(beside each source)')),
  ]);
  process.stdout.write(`${table(rows)}\n`);
}

export function registerPresetCommand(program: Command): void {
  const preset = program
    .command('preset')
    .description('Named sets of add options (languages, studio, outputs, folder…), shared with the app');

  batchOptionFlags(
    preset
      .command('save')
      .description('Save the options given as a preset (a preset of that name is replaced)')
      .argument('<name>', 'what to call it, e.g. euro'),
  ).action(async (name: string, flags: AddFlags, cmd: Command) => {
    if (!flags.to) cmd.error("error: required option '--to <langs>' not specified");
    process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
      const saved = await api.savePreset({
        name,
        options: { ...batchOptions(flags, cmd, false), to: flags.to ?? [] },
      });
      process.stderr.write(`Saved preset ${printable(saved.name)}: ${summary(saved)}.\n`);
      return ExitCode.Ok;
    });
  });

  preset
    .command('list')
    .description('List the presets')
    .option('--json', 'print them as JSON on stdout', false)
    .action(async (flags: { json: boolean }, cmd: Command) => {
      await withSession(cmd, { needsService: false, quiet: flags.json }, async ({ api }) => {
        const { presets } = await api.listPresets();
        if (flags.json) return printJson({ presets });
        if (presets.length === 0)
          return void process.stdout.write('No presets yet. Save one: dubdesk preset save NAME --to es,fr\n');
        process.stdout.write(`${table(presets.map((p) => [printable(p.name), summary(p)]))}\n`);
      });
    });

  preset
    .command('show')
    .description('Show what a preset holds')
    .argument('<name>')
    .option('--json', 'print it as JSON on stdout', false)
    .action(async (name: string, flags: { json: boolean }, cmd: Command) => {
      await withSession(cmd, { needsService: false, quiet: flags.json }, async ({ api }) => {
        const p = await findPreset(api, name);
        if (flags.json) printJson(p);
        else show(p);
      });
    });

  preset
    .command('delete')
    .description('Delete a preset (jobs added with it are not touched)')
    .argument('<name>')
    .action(async (name: string, _flags: unknown, cmd: Command) => {
      await withSession(cmd, { needsService: false }, async ({ api }) => {
        const { name: gone } = await api.deletePreset({ name });
        process.stderr.write(`Deleted preset ${printable(gone)}.\n`);
      });
    });
}
