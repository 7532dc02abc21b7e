/**
 * The kept library's floor under the idle bench's catch-up: `@parcel/watcher` alone, in a fresh process,
 * subscribing to the same trees as the engine does (recursive, events) until every subscription is live.
 * Its start walks every folder in native code to watch it, so no watcher built on it is watching sooner.
 */
import { subscribe } from '@parcel/watcher';

const roots = JSON.parse(process.argv[2] ?? '[]') as string[];
const t0 = performance.now();
const subs = await Promise.all(roots.map((root) => subscribe(root, () => {})));
const readyMs = performance.now() - t0;
await Promise.all(subs.map((s) => s.unsubscribe()));
process.stdout.write(`${JSON.stringify({ readyMs })}\n`);
