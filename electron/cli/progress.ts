import cliProgress from 'cli-progress';
import { isTerminal, type JobView } from '../../shared/domain';
import type { Engine } from '../engine/engine';
import { describeJob, formatBytes, formatDuration } from './format';

const LABEL: Record<JobView['state'], string> = {
  queued: 'queued',
  uploading: 'uploading',
  submitted: 'in the service queue',
  processing: 'dubbing',
  downloading: 'downloading',
  completed: 'done',
  failed: 'failed',
  canceled: 'canceled',
  paused: 'paused',
};

function detail(j: JobView): string {
  if (j.waiting) return j.waiting;
  const parts: string[] = [LABEL[j.state]];
  if (j.bytesPerSecond) parts.push(`${formatBytes(j.bytesPerSecond)}/s`);
  if (j.etaSeconds !== null) parts.push(`${formatDuration(j.etaSeconds)} left`);
  return parts.join(' · ');
}

function finished(j: JobView): string {
  if (j.state === 'completed') return `✓ ${describeJob(j)}: ${j.outputs.map((o) => o.path).join(', ')}`;
  if (j.state === 'failed') return `✗ ${describeJob(j)}: ${j.error ?? 'failed'}`;
  return `– ${describeJob(j)}: canceled`;
}

/** Follows engine events: bars on a terminal, one line per change otherwise, nothing in --json mode. */
export function reportProgress(
  engine: Engine,
  mode: 'tty' | 'plain' | 'silent',
  total: () => JobView[],
): () => void {
  if (mode === 'silent') return () => {};
  if (mode === 'plain') {
    const last = new Map<number, string>();
    const onJob = (j: JobView) => {
      const line = isTerminal(j.state) ? finished(j) : `  ${describeJob(j)}: ${j.waiting ?? LABEL[j.state]}`;
      if (last.get(j.id) === line) return;
      last.set(j.id, line);
      process.stderr.write(`${line}\n`);
    };
    engine.on('job', onJob);
    return () => engine.off('job', onJob);
  }

  const multi = new cliProgress.MultiBar(
    {
      format: ' {bar} {percentage}% | {name} | {detail}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      autopadding: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  const jobs = total();
  const tally = (all: JobView[]) => {
    const done = all.filter((x) => x.state === 'completed').length;
    const failed = all.filter((x) => x.state === 'failed').length;
    return { done, detail: `${done}/${all.length} done${failed ? `, ${failed} failed` : ''}` };
  };
  const first = tally(jobs);
  const overall = multi.create(jobs.length, first.done, { name: 'all jobs', detail: first.detail });
  const bars = new Map<number, cliProgress.SingleBar>();
  const logged = new Set<number>();
  const onJob = (j: JobView) => {
    const terminal = isTerminal(j.state);
    const bar = bars.get(j.id);
    if (terminal) {
      if (bar) {
        multi.remove(bar);
        bars.delete(j.id);
      }
      if (!logged.has(j.id)) {
        logged.add(j.id);
        multi.log(`${finished(j)}\n`);
      }
      const all = total();
      const t = tally(all);
      overall.setTotal(all.length);
      overall.update(t.done, { detail: t.detail });
      return;
    }
    logged.delete(j.id);
    const payload = { name: describeJob(j), detail: detail(j) };
    if (bar) bar.update(Math.round(j.progress), payload);
    else bars.set(j.id, multi.create(100, Math.round(j.progress), payload));
  };
  engine.on('job', onJob);
  return () => {
    engine.off('job', onJob);
    multi.update(); // flushes lines logged since the last redraw
    multi.stop();
  };
}
