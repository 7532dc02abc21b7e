import { useEffect, useState } from 'react';
import type { FaceBridge } from '../../../shared/face';
import { readDrop } from '../dropped-files';
import type { AppStore } from '../store';

const carriesFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');

/** Files dropped anywhere on the window open the Add sheet with them; answers whether a drag is over it. */
export function useWindowDrop(store: AppStore, bridge: FaceBridge): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const over = (e: DragEvent) => {
      if (carriesFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setOver(false);
      if (!e.dataTransfer || !carriesFiles(e)) return;
      e.preventDefault();
      const s = store.getState();
      if (s.screen === 'watch') return;
      if (!s.addOpen) s.startDraft();
      s.setAddOpen(true);
      void readDrop(e.dataTransfer, bridge.shell === 'web').then(({ files }) => s.stageFiles(files));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [store, bridge]);
  return over;
}
