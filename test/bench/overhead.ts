import { audioMp3 } from '../helpers/media';
import { runChild } from './child';
import { median, ratioOf, round, type Figure } from './figures';
import { API_KEY, benchSandbox } from './sandbox';

const JOBS = 300;
/** The first batch warms the JIT up and is shown apart; the figure is the median of the others. */
const BATCHES = 4;

/** Engine CPU time per job, measured with `process.cpuUsage()` in a process that runs only the engine. */
export async function overheadFigures(): Promise<Figure[]> {
  const sb = await benchSandbox({ pipelineSeconds: 0.01, balance: 1e9, ffmpeg: false });
  try {
    const r = await runChild<{ jobs: number; perBatch: { cpuMs: number; userMs: number }[] }>(
      './overhead-child.ts',
      {
        baseUrl: sb.baseUrl,
        apiKey: API_KEY,
        source: audioMp3(1, 'overhead.mp3'),
        jobs: JOBS,
        batches: BATCHES,
      },
    );
    const [cold, ...warm] = r.perBatch.map((b) => ({
      cpu: b.cpuMs / r.jobs,
      user: b.userMs / r.jobs,
    }));
    if (!cold || warm.length === 0) throw new Error('the overhead child ran no batch');
    const perJob = median(warm.map((b) => b.cpu));
    const user = median(warm.map((b) => b.user));
    return [
      {
        name: `engine overhead: ${r.jobs} jobs, zero-length pipeline, CPU per job (median of ${warm.length} batches; user ${round(user)} + system ${round(perJob - user)} ms)`,
        measured: round(perJob),
        unit: 'ms',
        target: '< 5',
        reference: `first batch of the process (JIT warming up): ${round(cold.cpu)} ms`,
        ratio: ratioOf(perJob, 5),
        pass: perJob < 5,
      },
    ];
  } finally {
    await sb.stop();
  }
}
