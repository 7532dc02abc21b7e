import { InvalidArgumentError, type Command } from 'commander';
import type { SandboxUser } from '../../sandbox/options';

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

export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description('Run the local simulator of the dubbing service (it does not translate)')
    .option('--port <n>', 'port to listen on (0 picks a free one)', number(0, 65535, true), 8787)
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
    .option('--latency <ms>', 'delay before every API answer', number(0, 60_000, true), 0)
    .option(
      '--seed <n>',
      'seed of the fault injection, to replay a run',
      number(-(2 ** 31), 2 ** 31, true),
      1,
    )
    .action(
      async (o: {
        port: number;
        host: string;
        apiKey: string;
        balance: number;
        user: SandboxUser[];
        pipelineSeconds: number;
        linkTtl: number;
        uploadTtl: number;
        maxUploadBytes: number;
        allowPrivateSourceUrls: boolean;
        fault502: number;
        faultReset: number;
        faultLostResponse: number;
        faultDubFailure: number;
        faultTruncate: number;
        faultExpireLink: number;
        latency: number;
        seed: number;
      }) => {
        const { startSandbox } = await import('../../sandbox/server');
        const sandbox = await startSandbox({
          port: o.port,
          host: o.host,
          apiKey: o.apiKey,
          balance: o.balance,
          users: o.user,
          pipelineSeconds: o.pipelineSeconds,
          linkTtlSeconds: o.linkTtl,
          uploadTtlSeconds: o.uploadTtl,
          maxUploadBytes: o.maxUploadBytes,
          allowPrivateSourceUrls: o.allowPrivateSourceUrls,
          seed: o.seed,
          faults: {
            rate502: o.fault502,
            rateReset: o.faultReset,
            rateLostResponse: o.faultLostResponse,
            rateDubFailure: o.faultDubFailure,
            rateTruncate: o.faultTruncate,
            rateExpireLink: o.faultExpireLink,
            latencyMs: o.latency,
          },
        }).catch((e: unknown) => {
          const code = (e as NodeJS.ErrnoException).code;
          throw new Error(
            code === 'EADDRINUSE' ? `port ${o.port} is already in use; pick another with --port` : String(e),
          );
        });
        console.log(`Sandbox running: base URL ${sandbox.baseUrl}  legacy URL ${sandbox.legacyUrl}`);
        console.log(
          `API key: ${o.apiKey} (balance ${o.balance} s)${o.user.length ? `, plus ${o.user.length} more account(s)` : ''}`,
        );
        console.log('It simulates the dubbing service and does not translate. Ctrl+C stops it.');
        await new Promise<void>((resolve) => {
          const stop = () => void sandbox.stop().then(resolve);
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
      },
    );
}
