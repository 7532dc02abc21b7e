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
}

export function watchLoopBlocks(): { stop(): LoopBlocks } {
  const out: LoopBlocks = { wallMs: 0, cpuMs: 0 };
  const cpu = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  let wall = performance.now();
  let used = cpu();
  let timer: NodeJS.Timeout | undefined;
  const turn = () => {
    const [w, c] = [performance.now(), cpu()];
    out.wallMs = Math.max(out.wallMs, w - wall);
    out.cpuMs = Math.max(out.cpuMs, c - used);
    [wall, used] = [w, c];
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
