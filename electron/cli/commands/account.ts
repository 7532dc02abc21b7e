import { join } from 'node:path';
import type { Command } from 'commander';
import { LEGACY_CODES, languageName } from '../../../shared/languages';
import { withSession, type GlobalFlags } from '../context';
import { ExitCode } from '../exit-codes';
import { creditCount, printJson, printable, table } from '../format';
import { LangsJson, MeJson } from '../json-shapes';
import { readKey } from '../read-key';

export function registerAccountCommands(program: Command): void {
  program
    .command('me')
    .description('Show the account and its credit balance')
    .option('--json', 'print a JSON document on stdout', false)
    .action(async (flags: { json: boolean }, cmd: Command) => {
      await withSession(cmd, { needsService: true, quiet: flags.json }, async ({ api }) => {
        const me = await api.account();
        // The profile as the service names it (the document scripts already read).
        if (flags.json)
          return printJson(
            MeJson.parse({
              id: me.id,
              email: me.email,
              name: me.name,
              username: me.username,
              first_name: me.firstName,
              last_name: me.lastName,
              seconds: me.balance,
              default_dub_lang: me.defaultDubLang,
              subscription_status: me.subscriptionStatus,
              subscription_plan: me.subscriptionPlan,
              created_at: me.createdAt,
            }),
          );
        process.stdout.write(
          `${printable(me.name)} <${printable(me.email)}>\nBalance: ${creditCount(me.balance)} credits (1 credit = 1 second of dubbed output)\n` +
            `Service: ${me.mode === 'sandbox' ? 'the built-in sandbox (a simulator: it does not translate)' : printable(me.baseUrl)}\n`,
        );
      });
    });

  program
    .command('langs')
    .description('List the target languages the service accepts')
    .option('--legacy', 'the 17 languages of the legacy API', false)
    .option('--json', 'print a JSON document on stdout', false)
    .action(async (flags: { legacy: boolean; json: boolean }, cmd: Command) => {
      await withSession(cmd, { needsService: !flags.legacy, quiet: flags.json }, async ({ api }) => {
        const live = flags.legacy ? null : await api.languages();
        const rows = live
          ? live.languages.map((l) => ({ code: l.code, name: l.name }))
          : LEGACY_CODES.map((code) => ({ code, name: languageName(code) }));
        if (live?.from === 'fallback')
          process.stderr.write(
            'The service cannot be reached: this is the list the service documents; it may accept others.\n',
          );
        if (flags.json) return printJson(LangsJson.parse(rows));
        process.stdout.write(
          `${table([['CODE', 'LANGUAGE'], ...rows.map((r) => [r.code, printable(r.name)])])}\n`,
        );
      });
    });

  program
    .command('login')
    .description('Store the API key (typed hidden, or read from stdin) and the service address')
    .action(async (_flags: unknown, cmd: Command) => {
      const flags = cmd.optsWithGlobals<GlobalFlags>();
      const key = await readKey();
      if (!key) {
        process.stderr.write(
          'dubdesk login: no key given. Example: echo "$KEY" | dubdesk login --base-url https://…\n',
        );
        process.exitCode = ExitCode.Usage;
        return;
      }
      await withSession(cmd, { needsService: false }, async ({ api, host }) => {
        const settings = await api.getSettings();
        const baseUrl =
          flags.baseUrl ?? (settings.service.mode === 'service' ? settings.service.baseUrl : null);
        if (baseUrl) {
          try {
            await api.testKey({ apiKey: key, baseUrl });
          } catch (e) {
            const code = (e as { code?: string }).code;
            if (code === 'auth') {
              process.stderr.write('dubdesk login: the service rejected this key; nothing was saved.\n');
              process.exitCode = ExitCode.Auth;
              return;
            }
            process.stderr.write(
              `warning: could not check the key now (${printable(e instanceof Error ? e.message : String(e))}); saving it anyway.\n`,
            );
          }
        }
        const saved = await api.setSettings({
          service: {
            apiKey: key,
            ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
            ...(flags.legacyUrl ? { legacyUrl: flags.legacyUrl } : {}),
          },
        });
        const storage = saved.service.keyStorage;
        if (saved.service.keyStore === 'file' && storage?.osUnavailable)
          process.stderr.write(`No system keychain here: ${printable(storage.osUnavailable)}.\n`);
        const where =
          saved.service.keyStore === 'os'
            ? 'the system keychain'
            : `${join(host.home, 'service.json')} (readable by you only)`;
        process.stderr.write(
          `Saved to ${where}.${baseUrl ? '' : ' Set the service address with --base-url too.'}\n`,
        );
      });
    });
}
