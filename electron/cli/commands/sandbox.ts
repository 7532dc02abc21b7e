import { plural } from '../../../shared/format';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DubdeskError } from '../../../shared/contract/errors';
import { BAD_DUBS, BadDubSchema, type BadDub, type SandboxUser } from '../../sandbox/options';

function number(min: number, max = Infinity, integer = false) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
      throw new InvalidArgumentError(
        `expected ${integer ? 'a whole number' : 'a number'} from ${min}${max === Infinity ? '' : ` to ${max}`}`,
      );
    }
    return n;
  };
}

function user(raw: string, previous: SandboxUser[] = []): SandboxUser[] {
  const at = raw.lastIndexOf(':');
  const seconds = Number(raw.slice(at + 1));
  if (at <= 0 || !Number.isFinite(seconds))
    throw new InvalidArgumentError('expected KEY:SECONDS, e.g. second-key:600');
  return [...previous, { apiKey: raw.slice(0, at), seconds }];
}

/** `fr:short,loud`: dubs into French come out short and loud (repeatable, one language each time). */
function badDub(raw: string, previous: Record<string, BadDub[]> = {}): Record<string, BadDub[]> {
  const [lang = '', kinds = ''] = raw.split(':');
  const parsed = kinds.split(',').map((k) => BadDubSchema.safeParse(k.trim()));
  if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(lang) || parsed.some((p) => !p.success))
    throw new InvalidArgumentError(
      `expected LANG:KIND[,KIND], e.g. fr:short; the kinds are ${BAD_DUBS.join(', ')}`,
    );
  return { ...previous, [lang]: parsed.flatMap((p) => (p.success ? [p.data] : [])) };
}

const DEFAULT_PORT = 8787;

function adminToken(raw: string): string {
  if (raw.length < 16) throw new InvalidArgumentError('expected at least 16 characters');
  return raw;
}

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description('Run the local simulator of the dubbing service (it does not translate)')
    .option(
      '--port <n>',
      'port to listen on, 0 for any free one (default: the last one used in --state-dir, else 8787, else any free one)',
      number(0, 65535, true),
    )
    .option(
      '--state-dir <dir>',
      'keep accounts, dubs, uploads, links and the clock here, so a restart carries on where it stopped',
    )
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--api-key <key>', 'API key of the first account', 'sandbox-key')
    .option('--balance <seconds>', 'credit balance of the first account', number(-1e12), 3600)
    .option('--user <key:seconds>', 'another account (repeatable)', user, [])
    .option('--pipeline-seconds <s>', 'how long a dub takes from queue to completion', number(0.01), 20)
    .option('--link-ttl <s>', 'lifetime of output links in seconds', number(1), 3600)
    .option('--upload-ttl <s>', 'lifetime of pre-signed upload URLs in seconds', number(1), 3600)
    .option(
      '--max-upload-bytes <n>',
      'upload size limit (v2 answers 413 beyond)',
      number(1, Infinity, true),
      1024 ** 3,
    )
    .option(
      '--max-storage-bytes <n>',
      "the object storage's own limit on a v1 or legacy upload (413 beyond; the spec states none: no limit by default)",
      number(1, Infinity, true),
    )
    .option(
      '--admin-token <token>',
      'token for the /__sandbox/* test controls (random when absent)',
      adminToken,
    )
    .option(
      '--link-rate <MiB/s>',
      'shape the receiving side of uploads to this rate, shared by all uploads at once (a token bucket), ' +
        'to try the app on a link like a real one (default: no limit)',
      number(0.01, 100_000),
    )
    .option('--allow-private-source-urls', 'let source_url point at loopback and private addresses', false)
    .option('--fault-502 <rate>', 'share of API calls answered 502', number(0, 1), 0)
    .option('--fault-reset <rate>', 'share of requests whose connection drops', number(0, 1), 0)
    .option(
      '--fault-lost-response <rate>',
      'share of calls that do the work, then drop the answer',
      number(0, 1),
      0,
    )
    .option('--fault-dub-failure <rate>', 'share of dubs that fail in the pipeline', number(0, 1), 0)
    .option('--fault-truncate <rate>', 'share of downloads cut halfway', number(0, 1), 0)
    .option('--fault-expire-link <rate>', 'share of downloads refused as expired (403)', number(0, 1), 0)
    .option(
      '--fault-refuse-source-url <rate>',
      'share of v2 creates from a source_url refused as unreachable (400)',
      number(0, 1),
      0,
    )
    .option(
      '--fault-quote-key <rate>',
      'share of error answers and failed dubs whose message quotes the caller’s API key',
      number(0, 1),
      0,
    )
    .addOption(
      new Option('--fault-list <how>', 'how every list of dubs breaks')
        .choices(['none', 'error', 'huge', 'deep', 'others'])
        .default('none'),
    )
    .option(
      '--bad-dub <lang:kinds>',
      `dubs into LANG come out bad, for QC (repeatable; kinds: ${BAD_DUBS.join(', ')})`,
      badDub,
    )
    .option('--latency <ms>', 'delay before every API answer', number(0, 60_000, true), 0)
    .option(
      '--clock-skew <seconds>',
      "how far the service's clock is off this machine's (negative: behind), in created_at and the Date header",
      number(-864_000, 864_000),
      0,
    )
    .addOption(
      new Option(
        '--timestamps <style>',
        'how created_at is written: ISO in UTC, without an offset, or unreadable',
      )
        .choices(['iso', 'naive', 'unparseable'])
        .default('iso'),
    )
    .addOption(
      new Option('--normalize-names <form>', 'store dub names in this Unicode form (macOS sends NFD)')
        .choices(['none', 'NFC'])
        .default('none'),
    )
    .option(
      '--seed <n>',
      'seed of the fault injection, to replay a run',
      number(-(2 ** 31), 2 ** 31, true),
      1,
    )
    .action(
      async (o: {
        port?: number;
        stateDir?: string;
        host: string;
        apiKey: string;
        balance: number;
        user: SandboxUser[];
        pipelineSeconds: number;
        linkTtl: number;
        uploadTtl: number;
        maxUploadBytes: number;
        maxStorageBytes?: number;
        linkRate?: number;
        allowPrivateSourceUrls: boolean;
        adminToken?: string;
        fault502: number;
        faultReset: number;
        faultLostResponse: number;
        faultDubFailure: number;
        faultTruncate: number;
        faultExpireLink: number;
        faultRefuseSourceUrl: number;
        faultQuoteKey: number;
        faultList: 'none' | 'error' | 'huge' | 'deep' | 'others';
        badDub?: Record<string, BadDub[]>;
        latency: number;
        clockSkew: number;
        timestamps: 'iso' | 'naive' | 'unparseable';
        normalizeNames: 'none' | 'NFC';
        seed: number;
      }) => {
        const { SandboxStateError, startSandbox } = await import('../../sandbox/server');
        const sandbox = await startSandbox({
          ...(o.port !== undefined ? { port: o.port } : { preferredPort: DEFAULT_PORT }),
          ...(o.stateDir ? { stateDir: o.stateDir } : {}),
          host: o.host,
          apiKey: o.apiKey,
          balance: o.balance,
          users: o.user,
          pipelineSeconds: o.pipelineSeconds,
          linkTtlSeconds: o.linkTtl,
          uploadTtlSeconds: o.uploadTtl,
          maxUploadBytes: o.maxUploadBytes,
          maxStorageBytes: o.maxStorageBytes ?? null,
          ...(o.linkRate !== undefined ? { linkRateMiBps: o.linkRate } : {}),
          allowPrivateSourceUrls: o.allowPrivateSourceUrls,
          ...(o.adminToken ? { adminToken: o.adminToken } : {}),
          seed: o.seed,
          faults: {
            rate502: o.fault502,
            rateReset: o.faultReset,
            rateLostResponse: o.faultLostResponse,
            rateDubFailure: o.faultDubFailure,
            rateTruncate: o.faultTruncate,
            rateExpireLink: o.faultExpireLink,
            rateRefuseSourceUrl: o.faultRefuseSourceUrl,
            rateQuoteKey: o.faultQuoteKey,
            listFault: o.faultList,
            badDubs: o.badDub ?? {},
            latencyMs: o.latency,
            clockSkewSeconds: o.clockSkew,
            timestamps: o.timestamps,
            normalizeNames: o.normalizeNames,
          },
        }).catch((e: unknown) => {
          if (e instanceof SandboxStateError) throw new DubdeskError('config', e.message);
          const code = (e as NodeJS.ErrnoException).code;
          throw new Error(
            code === 'EADDRINUSE'
              ? `port ${o.port} is already in use; pick another with --port`
              : e instanceof Error
                ? e.message
                : String(e),
          );
        });
        console.log(`Sandbox running: base URL ${sandbox.baseUrl}  legacy URL ${sandbox.legacyUrl}`);
        console.log(
          `API key: ${o.apiKey} (balance ${o.balance} s)${o.user.length ? `, plus ${plural(o.user.length, 'more account')}` : ''}`,
        );
        console.log(
          `Admin token (header x-sandbox-admin, for /__sandbox/* test controls): ${sandbox.adminToken}`,
        );
        if (o.linkRate !== undefined)
          console.log(`Uploads are received at ${o.linkRate} MiB/s at most, shared by all at once.`);
        if (sandbox.stateDir)
          console.log(`State kept in ${sandbox.stateDir} (a restart carries on from it).`);
        console.log('It simulates the dubbing service and does not translate. Ctrl+C stops it.');
        await new Promise<void>((resolve) => {
          const stop = () => void sandbox.stop().then(resolve);
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
      },
    );
}
