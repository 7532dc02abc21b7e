import { resolve } from 'node:path';
import { DubdeskError } from '../../shared/contract/errors';
import { printable } from './format';

/**
 * The data folder a command works on: `--home`, else DUBDESK_HOME, else the desktop app's, made absolute.
 * A value with a line break or another control character (a path pasted with its newline) is refused: it
 * would make a folder of that name, and write paths holding it into logs and files.
 */
export function chosenHome(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  defaultHome: () => string,
): string {
  const [value, from] = flag ? [flag, '--home'] : env.DUBDESK_HOME ? [env.DUBDESK_HOME, 'DUBDESK_HOME'] : [];
  if (value === undefined) return defaultHome();
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new DubdeskError(
      'bad-request',
      `${from} holds a line break or another control character: ${printable(JSON.stringify(value))}`,
      { remedy: `Set ${from} to the data folder's path alone, on one line.` },
    );
  return resolve(value);
}
