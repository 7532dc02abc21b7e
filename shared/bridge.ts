/**
 * The renderer's only view of the app: one method per action. Electron implements it in the preload
 * (contextBridge + ipcRenderer.invoke per method); the web UI implements it over HTTP to `dubdesk serve`.
 * The engine issue and the desktop UI issue grow it; each method's arguments are validated where it lands.
 */
export interface AppInfo {
  name: string;
  version: string;
  /** Which shell runs the UI. */
  shell: 'electron' | 'web';
}

export interface DubdeskApi {
  appInfo(): Promise<AppInfo>;
}

export const IPC = {
  appInfo: 'dubdesk:app-info',
} as const;
