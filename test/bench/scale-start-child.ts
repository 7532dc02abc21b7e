/** A fresh process opens a home and answers the first page of the queue and the totals; prints the time. */
const { openDubdesk } = await import('../../electron/engine/index');
const { home } = JSON.parse(process.argv[2] ?? '{}') as { home: string };
const t0 = performance.now();
const host = openDubdesk({ home, face: 'cli', service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'x' } });
const page = await host.api.listSources({ limit: 100 });
await host.api.totals();
const openListMs = performance.now() - t0;
if (page.sources.length === 0) throw new Error('no sources listed');
await host.close();
process.stdout.write(`${JSON.stringify({ openListMs, sources: page.total })}\n`);
export {};
