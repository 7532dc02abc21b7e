import { useEffect, type RefObject } from 'react';

/**
 * Keeps the field in focus in sight when the scrolling box holding it changes size. A dialog's body shrinks
 * when its footer grows (the Add sheet's cost arrives a moment after each pick, in more lines than "Reading
 * files…"): at 200% zoom that put the field being typed in under the footer. The browser brings a field
 * into view when it takes focus, not when its box shrinks later. An element marked data-in-sight (the
 * language picker's box of tags) is kept whole rather than only the input inside it.
 */
export function useFocusInSight(box: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const el = box.current;
    if (!active || !el) return;
    const observer = new ResizeObserver(() => {
      const focused = document.activeElement;
      if (!(focused instanceof HTMLElement) || !el.contains(focused)) return;
      (focused.closest<HTMLElement>('[data-in-sight]') ?? focused).scrollIntoView({ block: 'nearest' });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [box, active]);
}
