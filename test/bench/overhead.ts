import { audioMp3 } from '../helpers/media';
import { runChild } from './child';
import { ratioOf, round, type Figure } from './figures';
import { API_KEY, benchSandbox } from './sandbox';

const JOBS = 300;

/** Engine CPU time per job, measured with `process.cpuUsage()` in a process that runs only the engine. */
export async function overheadFigures(): Promise<Figure[]> {
  const sb = await benchSandbox({ pipelineSeconds: 0.01, balance: 1e9, ffmpeg: false });
  try {
    const r = await runChild<{ cpuMs: number; userMs: number; wallMs: number; jobs: number }>(
      './overhead-child.ts',
      {
        baseUrl: sb.baseUrl,
        apiKey: API_KEY,
        source: audioMp3(1, 'overhead.mp3'),
        jobs: JOBS,
      },
    );
    const perJob = r.cpuMs / r.jobs;
    return [
      {
        name: `engine overhead: ${r.jobs} jobs, zero-length pipeline, CPU per job (user ${round(r.userMs / r.jobs)} + system ${round((r.cpuMs - r.userMs) / r.jobs)} ms)`,
        measured: round(perJob),
        unit: 'ms',
        target: '< 5',
        reference: 'target 5 ms',
        ratio: ratioOf(perJob, 5),
        pass: perJob < 5,
      },
    ];
  } finally {
    await sb.stop();
  }
}
