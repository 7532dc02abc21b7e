import { contextBridge, ipcRenderer } from 'electron';

// Placeholder until the desktop issue: one function per action; ipcRenderer itself never reaches the page.
contextBridge.exposeInMainWorld('dubdesk', {
  appInfo: () => ipcRenderer.invoke('dubdesk:app-info') as Promise<unknown>,
});
