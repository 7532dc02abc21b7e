import { useRef, useState, type KeyboardEvent } from 'react';
import { languageName } from '../../../shared/languages';

interface Props {
  recent: readonly string[];
  /** The last batch's languages, when choosing them would change the selection. */
  lastBatch: readonly string[] | null;
  onRecent: (code: string) => void;
  onLastBatch: () => void;
}

/**
 * Recent languages and "Same as last batch" as one toolbar: a single Tab stop, arrow keys between them, so
 * the way from the language field to the Add button stays short (WAI-ARIA toolbar, roving tabindex).
 */
export function QuickPicks({ recent, lastBatch, onRecent, onLastBatch }: Props) {
  const [active, setActive] = useState(0);
  const bar = useRef<HTMLDivElement>(null);
  const count = recent.length + (lastBatch ? 1 : 0);
  // A chosen recent language leaves the bar: the stop stays on the one now in its place.
  const current = Math.min(active, count - 1);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const to =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? (current + 1) % count
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? (current - 1 + count) % count
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? count - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    setActive(to);
    bar.current?.querySelectorAll('button')[to]?.focus();
  }

  const stop = (i: number) => ({ tabIndex: i === current ? 0 : -1, onFocus: () => setActive(i) });
  return (
    <div className="picker-shortcuts" role="toolbar" aria-label="Quick picks" ref={bar} onKeyDown={onKeyDown}>
      {recent.length > 0 && <span className="muted">Recent:</span>}
      {recent.map((code, i) => (
        <button
          key={code}
          type="button"
          className="link"
          aria-label={`Add ${languageName(code)}, ${code}`}
          onClick={() => onRecent(code)}
          {...stop(i)}
        >
          {code}
        </button>
      ))}
      {lastBatch && (
        <button type="button" className="link" onClick={onLastBatch} {...stop(recent.length)}>
          Same as last batch ({lastBatch.join(', ')})
        </button>
      )}
    </div>
  );
}
