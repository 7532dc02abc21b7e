import { toContractError, type ContractError } from '../../shared/contract/errors';
import { printable } from './format';
import { thenSay } from '../../shared/format';

/** A command's own fix for an error code, in place of the general one (`watch` has no --force). */
export type HintsFor = Partial<Record<ContractError['code'], string>>;

/** What the CLI says instead of (or after) the engine's remedy: the flag or command that fixes it here. */
function hint(e: ContractError, own: HintsFor): { text: string; replaces: boolean } | null {
  const replace = (text: string) => ({ text, replaces: true });
  const add = (text: string) => ({ text, replaces: false });
  switch (e.field) {
    case 'to':
      return replace(/legacy/.test(e.message) ? 'see `dubdesk langs --legacy`' : 'see `dubdesk langs`');
    case 'from':
      return replace('see `dubdesk langs`, or use --from auto');
    case 'outDir':
    case 'preset.outDir':
      return replace('choose another folder with --out DIR');
    case 'legacyUrl':
      return replace('set --legacy-url or DUBDESK_LEGACY_URL');
    case 'baseUrl':
      return replace('set --base-url or DUBDESK_BASE_URL');
    case 'apiKey':
      return replace('set DUBDESK_API_KEY or run `dubdesk login` (the key is read from stdin)');
    case 'budget':
      // Not "add credits": the balance may be plenty. A command without --force (watch) names its own way.
      return replace(
        own.credits ??
          'raise the budget with `dubdesk spend --budget N`, or pass --force to add this batch anyway',
      );
    default:
      break;
  }
  const mine = own[e.code];
  if (mine) return replace(mine);
  switch (e.code) {
    case 'credits':
      return replace('Add credits, dub fewer files or languages, or pass --force to queue it anyway.');
    case 'offline':
      return add(
        'Check the network and the service address (--base-url or DUBDESK_BASE_URL); queued jobs resume by themselves.',
      );
    case 'auth':
      return add('Check the key: `dubdesk login`, or DUBDESK_API_KEY.');
    case 'not-found':
      if (/^no watched folder/.test(e.message)) return replace('See `dubdesk watch --list`.');
      return /^no job/.test(e.message) ? replace('See `dubdesk status`.') : null;
    default:
      return null;
  }
}

/** One line for the terminal: the engine's message, then what to do, with this face's own hint. */
export function describeError(raw: unknown, own: HintsFor = {}): string {
  const e = toContractError(raw);
  const h = hint(e, own);
  if (h?.replaces) return printable(e.field ? `${e.message}; ${h.text}` : thenSay(e.message, h.text));
  const tail = [e.remedy, h?.text].filter(Boolean).join(' ');
  return printable(tail ? thenSay(e.message, tail) : e.message);
}
