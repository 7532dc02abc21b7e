import { plural } from '../format';
import { asError } from './errors';
import type { SliceMaker, WatchSlice } from './types';

export const createWatchSlice: SliceMaker<WatchSlice> = (bridge) => (set, get) => ({
  folders: null,
  foldersError: null,
  watchFiles: null,
  async loadFolders() {
    try {
      const { folders } = await bridge.listWatchFolders();
      set({ folders, foldersError: null });
    } catch (e) {
      set({ foldersError: asError(e) });
    }
  },
  upsertFolder(folder) {
    const folders = get().folders ?? [];
    const at = folders.findIndex((f) => f.id === folder.id);
    set({ folders: at < 0 ? [...folders, folder] : folders.map((f) => (f.id === folder.id ? folder : f)) });
  },
  dropFolder(id) {
    set((s) => ({
      folders: (s.folders ?? []).filter((f) => f.id !== id),
      watchFiles: s.watchFiles?.folderId === id ? null : s.watchFiles,
    }));
  },
  async addFolder(path, preset) {
    try {
      get().upsertFolder(await bridge.addWatchFolder({ path, preset }));
      return null;
    } catch (e) {
      return asError(e);
    }
  },
  async updateFolder(id, change) {
    try {
      get().upsertFolder(await bridge.updateWatchFolder({ id, ...change }));
      return null;
    } catch (e) {
      return asError(e);
    }
  },
  async removeFolder(folder) {
    const ok = await get().confirm({
      title: 'Stop watching this folder?',
      body: `${folder.path} is no longer watched. Its files, and jobs already queued from it, stay.`,
      confirmLabel: 'Stop watching',
      danger: true,
    });
    if (!ok) return;
    try {
      await bridge.removeWatchFolder({ id: folder.id });
      get().dropFolder(folder.id);
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async approveFolder(folder) {
    try {
      const { queued } = await bridge.approveWatchFolder({ id: folder.id });
      get().notify('info', `${plural(queued, 'job')} queued from ${folder.path}.`);
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async showFolderFiles(id) {
    if (id === null) {
      set({ watchFiles: null });
      return;
    }
    try {
      const page = await bridge.listWatchFiles({ id, limit: 500 });
      set({ watchFiles: { folderId: id, total: page.total, files: page.files, error: null } });
    } catch (e) {
      set({ watchFiles: { folderId: id, total: 0, files: [], error: asError(e) } });
    }
  },
  async reprocessFile(folderId, path) {
    try {
      await bridge.reprocessWatchFile({ id: folderId, path });
      await get().showFolderFiles(folderId);
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
});
