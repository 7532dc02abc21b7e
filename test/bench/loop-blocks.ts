/**
 * The longest time the event loop was held, measured two ways between turns of a 1 ms timer: by the wall
 * clock (what `monitorEventLoopDelay` reports: it also counts time the OS gave the CPU to other processes),
 * and by the CPU time the loop's own thread spent meanwhile (`process.threadCpuUsage`): the block the app
 * itself made. On this 2-core VM shared with other work, the wall-clock figure swung from 50 to 450 ms over
 * the same code as the load went from 2 to 7, while the thread's own CPU stayed put.
 */
export interface LoopBlocks {
  /** Longest wall-clock gap between two turns, ms. */
  wallMs: number;
  /** Most CPU time the loop's thread spent between two turns, ms. */
  cpuMs: number;
  /**
   * When that turn was, on the monotonic clock (`process.hrtime`, seconds): `perf record -k
   * CLOCK_MONOTONIC` of the process with `node --perf-basic-prof` names what ran in it.
   */
  cpuTurnAt: { from: number; to: number };
}

export function watchLoopBlocks(): { stop(): LoopBlocks } {
  const out: LoopBlocks = { wallMs: 0, cpuMs: 0, cpuTurnAt: { from: 0, to: 0 } };
  const monotonic = () => Number(process.hrtime.bigint()) / 1e9;
  const cpu = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  let wall = performance.now();
  let used = cpu();
  let at = monotonic();
  let timer: NodeJS.Timeout | undefined;
  const turn = () => {
    const [w, c, now] = [performance.now(), cpu(), monotonic()];
    out.wallMs = Math.max(out.wallMs, w - wall);
    if (c - used > out.cpuMs) [out.cpuMs, out.cpuTurnAt] = [c - used, { from: at, to: now }];
    [wall, used, at] = [w, c, now];
    timer = setTimeout(turn, 1);
  };
  timer = setTimeout(turn, 1);
  return {
    stop() {
      clearTimeout(timer);
      turn();
      clearTimeout(timer);
      return out;
    },
  };
}
