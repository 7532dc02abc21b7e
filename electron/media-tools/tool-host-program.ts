import type { Running, spawnRun, ToolEnd, ToolRun } from './spawn-run';

/** What the engine asks the tool host. */
export type HostRequest = { type: 'run'; id: number; run: ToolRun } | { type: 'cancel'; id: number };

/** What the tool host tells the engine. */
export type HostReply =
  { type: 'spawned'; id: number; pid: number } | { type: 'end'; id: number; end: ToolEnd };

/**
 * The tool host's whole program, run as `node -e` with `spawnRun` handed in. SELF-CONTAINED, as spawnRun
 * is: its source text is what the host runs. It starts each tool it is asked to and says when it started
 * and how it ended. When the engine is gone (its IPC channel closes: it exited, or was killed with -9),
 * it kills every tool still running and exits: nothing it started outlives the engine.
 */
export function toolHostProgram(run: (r: ToolRun, onSpawn: (pid: number) => void) => Running): void {
  const running = new Map<number, Running>();
  const tell = (reply: HostReply) => {
    if (process.connected) process.send?.(reply);
  };
  process.on('message', (m: HostRequest) => {
    if (m.type === 'cancel') return running.get(m.id)?.cancel();
    const started = run(m.run, (pid) => tell({ type: 'spawned', id: m.id, pid }));
    running.set(m.id, started);
    void started.done.then((end) => {
      running.delete(m.id);
      tell({ type: 'end', id: m.id, end });
    });
  });
  process.on('disconnect', () => {
    for (const r of running.values()) r.kill();
    process.exit(0);
  });
}

/** The host's source for `node -e`: both functions by their text, whatever a bundler named them. */
export const toolHostSource = (run: typeof spawnRun) => `(${toolHostProgram.toString()})(${run.toString()});`;
