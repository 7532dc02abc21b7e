/**
 * Whether a tray icon can be seen. On Linux the tray is a StatusNotifierItem, shown only where something
 * hosts them (KDE, most desktops; GNOME only with the AppIndicator extension): without a host the icon does
 * not exist, and a window hidden "to the tray" could not be found again. The host owns
 * `org.kde.StatusNotifierWatcher` on the session bus.
 */
import { execFile } from 'node:child_process';

const WATCHER = 'org.kde.StatusNotifierWatcher';

type Run = (file: string, args: string[]) => Promise<string | null>;

const run: Run = (file, args) =>
  new Promise((resolve) =>
    execFile(file, args, { timeout: 3000 }, (error, stdout) => resolve(error ? null : stdout)),
  );

/** Asks the session bus whether the tray host is there; dbus-send first, then gdbus. */
export async function trayHostPresent(platform: NodeJS.Platform, ask: Run = run): Promise<boolean> {
  if (platform !== 'linux') return true;
  const viaDbusSend = await ask('dbus-send', [
    '--session',
    '--print-reply',
    '--dest=org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner',
    `string:${WATCHER}`,
  ]);
  if (viaDbusSend !== null) return /boolean true/.test(viaDbusSend);
  const viaGdbus = await ask('gdbus', [
    'call',
    '--session',
    '--dest',
    'org.freedesktop.DBus',
    '--object-path',
    '/org/freedesktop/DBus',
    '--method',
    'org.freedesktop.DBus.NameHasOwner',
    WATCHER,
  ]);
  // Neither answered (no session bus): a tray could not be shown either.
  return viaGdbus !== null && /\(true,?\)/.test(viaGdbus);
}
