import type { Figure } from './figures';

/** UI figures: they need the renderer and `dubdesk serve`, which have not landed on this branch yet. */
export function uiFigures(): Promise<Figure[]> {
  const missing = 'not measured yet (needs the renderer)';
  return Promise.resolve([
    {
      name: 'UI first render: 10,000 jobs in the store, serve mode, Chromium',
      measured: null,
      unit: 'ms',
      target: '< 500',
      reference: missing,
      ratio: null,
      pass: null,
    },
    {
      name: 'UI scroll: p95 frame time scrolling the 10,000-job queue',
      measured: null,
      unit: 'ms',
      target: '< 16.7',
      reference: missing,
      ratio: null,
      pass: null,
    },
  ]);
}
