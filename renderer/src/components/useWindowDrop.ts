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
    const clear = () => {
      depth = 0;
      setOver(false);
    };
    // A leave with no element to go to left the window: whatever the count says, the drag is gone.
    const leave = (e: DragEvent) => {
      depth = e.relatedTarget === null ? 0 : Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') clear();
    };
    const over = (e: DragEvent) => {
      if (carriesFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || !carriesFiles(e)) return;
      e.preventDefault();
      const s = store.getState();
      if (s.screen === 'watch') return;
      s.openAddSheet();
      void readDrop(e.dataTransfer, bridge.shell === 'web').then(({ files }) => s.stageFiles(files));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    // Captured: a drop zone inside the window stops the drop's propagation, not the overlay's end.
    window.addEventListener('drop', clear, true);
    window.addEventListener('dragend', clear, true);
    window.addEventListener('keydown', escape, true);
    return () => {
      window.removeEventListener('drop', clear, true);
      window.removeEventListener('dragend', clear, true);
      window.removeEventListener('keydown', escape, true);
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [store, bridge]);
  return over;
}
