/**
 * The browser session's rules: no permission is granted (the video's own fullscreen button excepted, for
 * the app's page), no device, no download, and no request from the page to the network at all.
 */
import type { Session } from 'electron';
import { isAppUrl } from './trust';

/** The page fetches from the app and media protocols only; the engine talks to the service, not the page. */
export const NETWORK_URLS = ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*', 'ftp://*/*'];

export function allowPermission(permission: string, requestingUrl: string | undefined): boolean {
  return permission === 'fullscreen' && isAppUrl(requestingUrl);
}

export function secureSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(allowPermission(permission, details.requestingUrl)),
  );
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
  session.webRequest.onBeforeRequest({ urls: NETWORK_URLS }, (_details, callback) =>
    callback({ cancel: true }),
  );
}
