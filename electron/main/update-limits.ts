/**
 * What keeps this copy from installing updates by itself, said instead of met as a failure every 6 hours.
 * macOS: Squirrel.Mac installs only into an app signed with a Developer ID, and macOS delivers notifications
 * (and the Dock badge) only to signed apps; an ad-hoc signature, which electron-builder gives an unsigned
 * build, is not enough.
 */
import { execFile } from 'node:child_process';

export const UNSIGNED_MAC =
  'This copy of Dubdesk is not signed with a Developer ID, so macOS lets it neither update itself nor show notifications.';

export type MacSigning = 'developer-id' | 'ad-hoc' | 'unsigned' | 'other';

/** What `codesign -dv --verbose=2` printed (on stderr) about an app. */
export function signingOf(codesignOutput: string): MacSigning {
  if (/Authority=Developer ID Application:/.test(codesignOutput)) return 'developer-id';
  if (/Signature=adhoc/.test(codesignOutput)) return 'ad-hoc';
  if (/not signed at all/.test(codesignOutput)) return 'unsigned';
  return 'other';
}

type Run = (file: string, args: string[]) => Promise<string>;

const runCodesign: Run = (file, args) =>
  new Promise((resolve) => execFile(file, args, (_error, stdout, stderr) => resolve(`${stdout}${stderr}`)));

/** The app bundle's signing: `…/Dubdesk.app/Contents/MacOS/Dubdesk` is asked about `…/Dubdesk.app`. */
export async function macSigning(execPath: string, run: Run = runCodesign): Promise<MacSigning> {
  const bundle = execPath.split('/Contents/MacOS/')[0] ?? execPath;
  return signingOf(await run('/usr/bin/codesign', ['-dv', '--verbose=2', bundle]));
}

/** Why this copy cannot install updates, or null when it can. */
export async function updateLimits(
  platform: NodeJS.Platform,
  execPath: string,
  run: Run = runCodesign,
): Promise<string | null> {
  if (platform !== 'darwin') return null;
  return (await macSigning(execPath, run)) === 'developer-id' ? null : UNSIGNED_MAC;
}
