import type { Command } from 'commander';
import { LANGUAGES, LEGACY_CODES, languageName } from '../../../shared/languages';
import { ApiError } from '../../engine/api/errors';
import { V2Client } from '../../engine/api/v2';
import { readStoredSettings, resolveConfig, writeStoredSettings } from '../../engine/config';
import { withSession, type GlobalFlags } from '../context';
import { ExitCode } from '../exit-codes';
import { printJson, table } from '../format';

export function registerAccountCommands(program: Command): void {
  program
    .command('me')
    .description('Show the account and its credit balance')
    .option('--json', 'print a JSON document on stdout', false)
    .action(async (flags: { json: boolean }, cmd: Command) => {
      await withSession(cmd, { needsService: true, quiet: flags.json }, async ({ engine }) => {
        const me = await engine.profile();
        if (flags.json) return printJson(me);
        process.stdout.write(
          `${me.name} <${me.email}>\nBalance: ${me.seconds} credits (1 credit = 1 second of dubbed output)\n`,
        );
      });
    });

  program
    .command('langs')
    .description('List the target languages the service accepts')
    .option('--legacy', 'the 17 languages of the legacy API', false)
    .option('--json', 'print a JSON document on stdout', false)
    .action(async (flags: { legacy: boolean; json: boolean }, cmd: Command) => {
      await withSession(cmd, { needsService: !flags.legacy, quiet: flags.json }, async ({ engine }) => {
        const codes = flags.legacy ? [...LEGACY_CODES] : (await engine.languages()).codes;
        const rows = codes.map((code) => ({ code, name: languageName(code) }));
        if (flags.json) return printJson(rows);
        process.stdout.write(`${table([['CODE', 'LANGUAGE'], ...rows.map((r) => [r.code, r.name])])}\n`);
        if (!flags.legacy && codes.length !== LANGUAGES.length)
          process.stdout.write(`(${codes.length} languages from the service)\n`);
      });
    });

  program
    .command('login')
    .description('Store the API key (read from stdin) and the service address for later commands')
    .action(async (_flags: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<GlobalFlags>();
      const chunks: Buffer[] = [];
      if (process.stdin.isTTY) process.stderr.write('Paste the API key, then press Enter and Ctrl+D: ');
      for await (const c of process.stdin) chunks.push(c as Buffer);
      const key = Buffer.concat(chunks).toString('utf8').trim();
      if (!key) {
        process.stderr.write(
          'dubdesk login: no key on stdin. Example: echo "$KEY" | dubdesk login --base-url https://…\n',
        );
        process.exitCode = ExitCode.Usage;
        return;
      }
      const config = resolveConfig(flags);
      const baseUrl = flags.baseUrl ?? config.baseUrl;
      if (baseUrl) {
        try {
          await new V2Client(baseUrl, key).me();
        } catch (e) {
          if (e instanceof ApiError && e.kind === 'auth') {
            process.stderr.write('dubdesk login: the service rejected this key; nothing was saved.\n');
            process.exitCode = ExitCode.Auth;
            return;
          }
          process.stderr.write(
            `warning: could not check the key now (${e instanceof Error ? e.message : String(e)}); saving it anyway.\n`,
          );
        }
      }
      const stored = readStoredSettings(config.home);
      writeStoredSettings(config.home, {
        ...stored,
        apiKey: key,
        ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        ...(flags.legacyUrl ? { legacyUrl: flags.legacyUrl } : {}),
      });
      process.stderr.write(
        `Saved to ${config.home} (readable by you only).${baseUrl ? '' : ' Set the service address with --base-url too.'}\n`,
      );
    });
}
