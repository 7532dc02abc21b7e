import { contextBridge, ipcRenderer } from 'electron';
import { IPC, type AppInfo, type DubdeskApi } from '../../shared/bridge';

// One function per action; ipcRenderer itself never reaches the page.
const api: DubdeskApi = {
  appInfo: () => ipcRenderer.invoke(IPC.appInfo) as Promise<AppInfo>,
};
contextBridge.exposeInMainWorld('dubdesk', api);
