import { useAppApi } from '../store';
import { jobsToMove } from './row-moves';

/** Move the selected rows to the front or the end of the queue (Ctrl+Shift+↑ / ↓ do the same). */
export function MoveButtons() {
  const store = useAppApi();
  const move = (to: 'top' | 'bottom') => {
    const s = store.getState();
    void s.moveJobs(jobsToMove(s, null), to);
  };
  return (
    <>
      <button
        type="button"
        onClick={() => move('top')}
        aria-keyshortcuts="Control+Shift+ArrowUp Meta+Shift+ArrowUp"
      >
        Move to top
      </button>
      <button
        type="button"
        onClick={() => move('bottom')}
        aria-keyshortcuts="Control+Shift+ArrowDown Meta+Shift+ArrowDown"
      >
        Move to bottom
      </button>
    </>
  );
}
