/**
 * Whether the window is hidden (minimised, or its tab in the background): the app then makes no contract
 * call and runs no timer, and catches up when it is shown again. No document (the store's unit tests): never
 * hidden.
 */
export const pageHidden = (): boolean =>
  typeof document !== 'undefined' && document.visibilityState === 'hidden';

/** Calls `shown` each time the window becomes visible; returns how to stop. */
export function onPageShown(shown: () => void): () => void {
  if (typeof document === 'undefined') return () => {};
  const listener = () => {
    if (!pageHidden()) shown();
  };
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
}
