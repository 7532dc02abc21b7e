/**
 * An idle Node process measuring its own event-loop delay until stdin closes: what the machine's scheduler
 * alone does to a process that has no work, the floor under any stall figure taken at the same time.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => {
  loop.disable();
  process.stdout.write(`${JSON.stringify({ maxMs: loop.max / 1e6 })}\n`);
});
