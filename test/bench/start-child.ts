/** A fresh process opens a home and answers the first page of the queue; prints the times. */
const t0 = performance.now();
const { openDubdesk } = await import('../../electron/engine/index');
const t1 = performance.now();
const { home } = JSON.parse(process.argv[2] ?? '{}') as { home: string };
const host = openDubdesk({ home, face: 'cli', service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'x' } });
const page = await host.api.listSources({ limit: 100 });
const t2 = performance.now();
if (page.total < 2000) throw new Error(`only ${page.total} sources`);
await host.close();
process.stdout.write(`${JSON.stringify({ importMs: t1 - t0, openListMs: t2 - t1 })}\n`);
export {};
