import { DubdeskError } from '../../shared/contract/errors';

/** Characters that would make a file name a path, a hidden control, or a spoofed extension. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const HOSTILE = /[/\\\0-\x1f\x7f\u202a-\u202e\u2066-\u2069]/u;
/** Characters some file systems refuse (Windows): replaced so the same name works everywhere. */
const RESERVED = /[<>:"|?*]/g;
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
const MAX_NAME_BYTES = 255;

/**
 * The name a dropped file is stored under in its own staging folder: the browser's name, unicode kept,
 * or a `bad-request` for a name that tries to be a path (`../x`, `a/b`, `C:\x`), holds control or bidi
 * override characters, or is too long for a file system.
 */
export function stagedName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new DubdeskError('bad-request', 'name the file being staged', { field: 'name' });
  const name = raw.normalize('NFC');
  if (HOSTILE.test(name) || name === '.' || name === '..')
    throw new DubdeskError(
      'bad-request',
      'the file name may not hold path separators, `..`, or control characters',
      { field: 'name' },
    );
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES)
    throw new DubdeskError('bad-request', `the file name is longer than ${MAX_NAME_BYTES} bytes`, {
      field: 'name',
    });
  // Trailing dots and spaces vanish on Windows: keep the name the user sees.
  const safe = name.replace(RESERVED, '_').replace(/[. ]+$/, '');
  if (!safe) throw new DubdeskError('bad-request', 'the file name is empty once cleaned', { field: 'name' });
  return DEVICE.test(safe) ? `_${safe}` : safe;
}
