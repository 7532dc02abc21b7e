import type { ProfileV2 } from '../../../../shared/api/v2';
import type { Account, Languages } from '../../../../shared/contract/account';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import { LANGUAGES, LEGACY_CODES, flagEmoji, languageName } from '../../../../shared/languages';
import { targetLanguages } from '../../api/langs';
import type { JobStore } from '../../db/jobs';
import { asContractError, ensureService } from '../contract-error';
import type { ServiceConnection } from '../dubbing-service';
import type { ServiceReach } from '../totals/reach';
import { BalanceCache } from './balance';
import { CreditAnchor } from './credit-anchor';
import { ApiError } from '../../api/errors';

/**
 * A key test's refusal in one plain sentence, said where the key is being entered: the service's own words
 * without a second set of brackets, and no "check the key in the settings" to someone already there.
 */
function testKeyError(e: unknown): DubdeskError {
  if (e instanceof ApiError && e.kind === 'auth')
    return new DubdeskError('auth', `the service rejected the API key: ${e.message.replace(/\.$/, '')}.`, {
      remedy: 'Copy the whole key again from your account (API Keys section).',
    });
  if (e instanceof ApiError && e.kind === 'network')
    return new DubdeskError('offline', `${e.message.replace(/\.$/, '')}.`, {
      remedy: 'Check the service address and the network.',
    });
  return asContractError(e);
}

function accountOf(mode: Account['mode'], baseUrl: string, me: ProfileV2): Account {
  return {
    mode,
    baseUrl,
    id: me.id,
    name: me.name,
    username: me.username,
    firstName: me.first_name,
    lastName: me.last_name,
    email: me.email,
    balance: me.seconds,
    subscriptionStatus: me.subscription_status,
    subscriptionPlan: me.subscription_plan,
    defaultDubLang: me.default_dub_lang,
    createdAt: me.created_at,
  };
}

export interface AccountDeps {
  services: ServiceConnection;
  /** The language list is cached in the queue's database. */
  store: JobStore;
  /** The service answered: whatever said it was unreachable is over. */
  reach: Pick<ServiceReach, 'answered'>;
}

type AccountHandlers = Pick<DubdeskHandlers, 'account' | 'testKey' | 'languages'>;

/** The account behind the key: who it is, its balance (cached for the header), and the languages it offers. */
export class AccountService {
  readonly balance: BalanceCache;
  private readonly anchor: CreditAnchor;

  constructor(private readonly deps: AccountDeps) {
    this.balance = new BalanceCache(() => deps.services.describe().configured && this.accountNow());
    this.anchor = new CreditAnchor(deps.store);
    this.balance.onForget(() => this.anchor.forget());
  }

  async accountNow(): Promise<Account> {
    const active = await ensureService(this.deps.services);
    try {
      const sent = this.anchor.sending(active.id);
      const me = await active.clients.v2.me();
      // A read sent before the one the balance shows is older news: the newer one stands.
      if (this.anchor.heard(sent, me.id, me.seconds)) this.balance.heard(me.seconds);
      this.deps.reach.answered();
      return accountOf(active.mode, active.baseUrl, me);
    } catch (e) {
      throw asContractError(e);
    }
  }

  /**
   * Credits the queue will still take from the balance shown: the estimates of its jobs not yet charged,
   * and the charges recorded since that balance was read (see CreditAnchor).
   */
  committedNow(): number {
    const service = this.deps.services.current()?.id ?? this.deps.services.serviceId();
    return this.anchor.committed(service, this.deps.store.lists.creditSums().committed);
  }

  /** The balance, or null when the service cannot be asked now; a rejected key still stops. */
  async balanceOrNull(): Promise<number | null> {
    try {
      return (await this.accountNow()).balance;
    } catch (e) {
      if (e instanceof DubdeskError && (e.code === 'auth' || e.code === 'config')) throw e;
      return null;
    }
  }

  /** The target languages the service offers now, else the built-in list. */
  async liveCodes(): Promise<{ codes: string[]; from: Languages['from'] }> {
    const active = await ensureService(this.deps.services).catch(() => null);
    if (!active) return { codes: LANGUAGES.map((l) => l.code), from: 'fallback' };
    return targetLanguages(this.deps.store.settings, active.clients.langs);
  }

  handlers(): AccountHandlers {
    return {
      languages: async () => {
        const { codes, from } = await this.liveCodes();
        const byCode = new Map(LANGUAGES.map((l) => [l.code, l]));
        return {
          from,
          languages: codes.map((code) => ({
            code,
            name: languageName(code),
            emoji: flagEmoji(byCode.get(code)?.country ?? null),
            legacy: LEGACY_CODES.includes(code),
          })),
        };
      },
      account: () => this.accountNow(),
      testKey: async ({ apiKey, baseUrl }) => {
        const clients = this.deps.services.trial(apiKey, baseUrl);
        try {
          const me = await clients.v2.me();
          return accountOf('service', baseUrl ?? this.deps.services.describe().baseUrl ?? '', me);
        } catch (e) {
          throw testKeyError(e);
        }
      },
    };
  }
}
