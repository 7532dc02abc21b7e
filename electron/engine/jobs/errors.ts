import { DubdeskError, type ContractError } from '../../../shared/contract/errors';
import type { Waiting } from '../../../shared/contract/jobs';
import { ApiError } from '../api/errors';
import { roomToFree } from '../files/disk-space';
import { NameTakenError } from '../files/own-file';

/**
 * What to do about a failed step:
 * - `wait`: not the job's fault (network down, disk full): try again later, for as long as it takes;
 * - `bounded`: the service or something unexpected misbehaved: try again a limited number of times;
 * - `never`: a definitive answer (bad file, refused request): the job fails now;
 * - `halt-auth` / `halt-credits`: the whole queue stops until the key or the balance changes;
 * - `interrupted`: the step was stopped on purpose (shutdown, pause, cancel).
 */
export type RetryPolicy = 'wait' | 'bounded' | 'never' | 'halt-auth' | 'halt-credits' | 'interrupted';

export interface JobError {
  error: ContractError;
  retry: RetryPolicy;
  /** How the wait reads in the queue while the job waits. */
  waitingCode: Waiting['code'];
  /** The step got further this time (a transfer grew its file): the service is not failing the same way. */
  madeProgress?: boolean;
}

/** A local disk problem found while writing outputs: carries what the user needs to hear. */
export class DiskError extends Error {
  constructor(
    readonly errno: string,
    readonly dir: string,
    /** Bytes still to write, when known. */
    readonly needBytes: number | null,
  ) {
    super(`${errno} in ${dir}`);
    this.name = 'DiskError';
  }
}

/** A step stopped between two HTTP calls because the job or the queue was paused, or the run stops. */
export class StopAtStep extends Error {
  constructor(readonly why: 'pause' | 'stop') {
    super(why === 'pause' ? 'paused by the user' : 'stopping');
    this.name = 'StopAtStep';
  }
}

function fromDisk(e: DiskError): JobError {
  if (e.errno === 'ENOSPC' || e.errno === 'EDQUOT') {
    const need = e.needBytes !== null ? `free ${roomToFree(e.needBytes)}` : 'free some space';
    return {
      error: {
        code: 'disk',
        message: `disk full: ${need} in ${e.dir}`,
        remedy: 'The job goes on by itself once there is room.',
      },
      retry: 'wait',
      waitingCode: 'disk',
    };
  }
  if (e.errno === 'EROFS')
    return {
      error: {
        code: 'disk',
        message: `${e.dir} is on a read-only disk`,
        remedy:
          'Make the folder writable again (remount its disk read-write), or choose another output folder; then retry the job: a dub already made is not paid again.',
      },
      retry: 'never',
      waitingCode: 'disk',
    };
  // The folder was moved or deleted while a result was saved in it: the next try makes it again.
  if (e.errno === 'ENOENT')
    return {
      error: {
        code: 'disk',
        message: `${e.dir} is gone: it was moved or deleted while a result was saved in it`,
        remedy:
          'Dubdesk makes the folder again and downloads the result again; if it goes on, choose another output folder, then retry.',
      },
      retry: 'bounded',
      waitingCode: 'disk',
    };
  if (e.errno === 'ENOTDIR')
    return {
      error: {
        code: 'disk',
        message: `cannot write to ${e.dir}: a file is in the way of the output folder`,
        remedy: 'Move that file away (or choose another output folder), then retry.',
      },
      retry: 'never',
      waitingCode: 'disk',
    };
  return {
    error: {
      code: 'permission',
      message: `cannot write to ${e.dir} (${e.errno})`,
      remedy:
        'Make the folder writable again, or choose another output folder; then retry the job: a dub already made is not paid again.',
    },
    retry: 'never',
    waitingCode: 'disk',
  };
}

function fromApi(e: ApiError): JobError {
  const message = e.message;
  switch (e.kind) {
    case 'network':
      return {
        // The API's own words already say "cannot reach <address> (why)": not said twice.
        error: {
          code: 'offline',
          message: /^cannot reach /.test(message) ? message : `cannot reach the service: ${message}`,
        },
        retry: 'wait',
        waitingCode: 'offline',
      };
    case 'canceled':
      return { error: { code: 'canceled', message: 'canceled' }, retry: 'interrupted', waitingCode: 'retry' };
    // Not the network: the app does not go offline for it, and the job says what is wrong with the file.
    case 'source':
      return {
        error: {
          code: 'disk',
          message,
          remedy: 'It is sent again once it stops changing (a file still being written) or its disk answers.',
        },
        retry: 'wait',
        waitingCode: 'source',
      };
    case 'auth':
      return {
        error: {
          code: 'auth',
          message: `the service rejected the API key (${message})`,
          remedy: 'Check the key in the settings.',
        },
        retry: 'halt-auth',
        waitingCode: 'auth',
      };
    case 'credits':
      return {
        error: {
          code: 'credits',
          message: 'out of credits',
          remedy: 'Add credits; the queue goes on by itself.',
        },
        retry: 'halt-credits',
        waitingCode: 'credits',
      };
    case 'bad-request':
      return {
        error: { code: 'bad-request', message: `the service refused the request: ${message}` },
        retry: 'never',
        waitingCode: 'retry',
      };
    case 'too-large':
      return {
        error: {
          code: 'too-large',
          message: `the service refused the file as too large: ${message}`,
          remedy: 'Split or compress it.',
        },
        retry: 'never',
        waitingCode: 'retry',
      };
    default:
      break;
  }
  // A transfer that got further this time was cut again (a flaky line): resume, for as long as it moves.
  if (e.retry === 'wait')
    return {
      error: { code: 'service', message: `${message}; resuming` },
      retry: 'wait',
      waitingCode: 'retry',
      madeProgress: true,
    };
  // Everything else is the service misbehaving (5xx, broken or oversized answers, bad links): a few more
  // tries; or a definitive answer the flows did not expect (another 4xx): the job fails now.
  return {
    error: { code: 'service', message },
    retry: e.retry === 'never' ? 'never' : 'bounded',
    waitingCode: 'retry',
  };
}

/** Every failure of a step, in one place: what it means for the user and whether to try again. */
export function classify(e: unknown): JobError {
  if (e instanceof StopAtStep)
    return { error: { code: 'canceled', message: e.message }, retry: 'interrupted', waitingCode: 'retry' };
  if (e instanceof ApiError) return fromApi(e);
  if (e instanceof DiskError) return fromDisk(e);
  if (e instanceof DubdeskError) return { error: e.toJSON(), retry: 'never', waitingCode: 'retry' };
  if (e instanceof NameTakenError)
    return {
      error: {
        code: 'disk',
        message: e.message,
        remedy: 'Dubdesk takes another name on the next try; check who else writes into this folder.',
      },
      retry: 'bounded',
      waitingCode: 'disk',
    };
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ABORT_ERR' || err?.name === 'AbortError')
    return { error: { code: 'canceled', message: 'canceled' }, retry: 'interrupted', waitingCode: 'retry' };
  if (err?.code && err.path && ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM'].includes(err.code))
    return fromDisk(new DiskError(err.code, err.path, null));
  if (err?.code === 'ENOENT' && typeof err.path === 'string')
    return {
      error: {
        code: 'not-found',
        message: `${err.path} is gone: it was moved or deleted while the job used it`,
        remedy: 'Put it back, then retry the job.',
      },
      retry: 'bounded',
      waitingCode: 'retry',
    };
  if (!(err instanceof Error))
    return { error: { code: 'internal', message: String(e) }, retry: 'bounded', waitingCode: 'retry' };
  // Node's own file errors begin with their code ("EISDIR: illegal operation…"): said once.
  const said = !err.code || err.message.startsWith(`${err.code}:`);
  const what = said ? err.message : `${err.code}: ${err.message}`;
  return { error: { code: 'internal', message: what }, retry: 'bounded', waitingCode: 'retry' };
}
