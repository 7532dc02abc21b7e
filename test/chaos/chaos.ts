/**
 * The long run: jobs over the three generations against a sandbox injecting every fault at once, `dubdesk
 * run` killed with SIGKILL at seeded random moments, and a clock jump of hours forward in the middle of a run
 * (the sandbox and the engine's process both), as when a laptop wakes up. `npm run chaos` runs the full
 * counts; a test runs fewer. Every job must complete exactly once, be charged once, with outputs
 * byte-identical to what the sandbox served, and no retry storm after the jump.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExternalStatus, type OutputType } from '../../shared/api/common';
import type { ApiGeneration, JobView } from '../../shared/contract/jobs';
import { openDubdesk } from '../../electron/engine/index';
import { mulberry32 } from '../../electron/sandbox/faults';
import { startSandbox } from '../../electron/sandbox/server';
import { CLI, runCli, type CliResult } from '../helpers/cli';
import { countingProxy } from '../helpers/counting-proxy';
import { tempDir } from '../helpers/temp-dir';
import { audioMp3, videoMd5, videoMp4 } from '../helpers/media';

const FAKE_CLOCK = fileURLToPath(new URL('../helpers/fake-clock.mjs', import.meta.url));
const CONCURRENCY = 2;
const LANGS = ['es', 'fr'];
/** In a source's name: sent as its sound alone. */
const SOUND_ALONE = '-sound';

interface Source {
  file: string;
  send: 'file' | 'audio';
}

export interface ChaosOptions {
  jobs: number;
  kills: number;
  seed: number;
  /** How far the clock jumps, in hours. */
  jumpHours?: number;
  log?: (line: string) => void;
}

export interface ChaosReport {
  seconds: number;
  jobs: number;
  byGeneration: Record<ApiGeneration, number>;
  /** Jobs whose video went as its sound alone, its dubbed video made here. */
  soundAlone: number;
  kills: number;
  runs: number;
  retriedFailed: number;
  faultsFired: Record<string, number>;
  requests: number;
  /** Jobs not finished when the clock jumped: all of them were due at once afterwards. */
  waitingAtJump: number;
  /** Requests in flight at once in the 2.5 s after the jump (until that run is killed), and how many started. */
  maxInFlightAfterJump: number;
  requestsAfterJump: number;
  /** Dubs started on the service (failed ones included) and charges in its ledger. */
  dubsStarted: number;
  charges: number;
  problems: string[];
}

interface Run {
  kill(): void;
  signal(sig: NodeJS.Signals): void;
  /** Resolves once the run has reported `n` changes of its jobs (or has ended). */
  changes(n: number): Promise<void>;
  done: Promise<CliResult>;
}

/** Splits `jobs` over the generations, two languages per source (legacy takes MP4 only). */
function plan(jobs: number): Record<ApiGeneration, number> {
  const per = Math.floor(jobs / 3);
  return { v2: jobs - 2 * per, v1: per, legacy: per };
}

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const log = o.log ?? (() => {});
  const random = mulberry32(o.seed);
  const sb = await startSandbox({
    pipelineSeconds: 1.5,
    seed: o.seed,
    faults: {
      rate502: 0.05,
      rateReset: 0.03,
      rateLostResponse: 0.05,
      rateDubFailure: 0.05,
      rateTruncate: 0.1,
      rateExpireLink: 0.1,
      latencyMs: 20,
    },
  });
  const proxy = await countingProxy(sb.baseUrl);
  const work = tempDir('dubdesk-chaos-');
  // Kept only when something went wrong, to look at.
  let keepWork = true;
  const clockFile = join(work, 'clock-offset-ms');
  writeFileSync(clockFile, '0');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DUBDESK_HOME: join(work, 'home'),
    DUBDESK_BASE_URL: proxy.url,
    DUBDESK_LEGACY_URL: `${proxy.url}/legacy`,
    DUBDESK_API_KEY: sb.account.apiKey,
    DUBDESK_RETRY_BASE_MS: '100',
    DUBDESK_TEST_CLOCK_FILE: clockFile,
  };
  const out = join(work, 'out');
  const problems: string[] = [];
  const byGeneration = plan(o.jobs);
  let runs = 0;
  let kills = 0;
  let retriedFailed = 0;
  let jumpAt = 0;
  let waitingAtJump = 0;

  try {
    // Sources: one per two jobs, each its own content (its name is in its metadata): byte-identical copies
    // would be dubbed once and linked, which is pay-once working, not what this run counts.
    // A third of the videos go as users send them by default: their sound alone (issue 34), the dubbed video
    // made here. Killed while extracting, uploading the sound, downloading or rebuilding, they too must end
    // done once and charged once.
    for (const api of ['v2', 'v1', 'legacy'] as const) {
      const files: Source[] = [];
      for (let i = 0; i < Math.ceil(byGeneration[api] / LANGS.length); i++) {
        const audio = api !== 'legacy' && i % 3 === 2;
        const sound = !audio && i % 3 === 1;
        const name = `${api}-${i}${sound ? SOUND_ALONE : ''}.${audio ? 'mp3' : 'mp4'}`;
        const file = join(work, name);
        copyFileSync(audio ? audioMp3(2, name) : videoMp4(2, name), file);
        files.push({ file, send: sound ? 'audio' : 'file' });
      }
      const langs = byGeneration[api] % 2 ? LANGS.slice(0, 1) : LANGS;
      // An odd count: the last source gets one language.
      const last = byGeneration[api] % 2 ? files.pop() : undefined;
      for (const [batch, to] of [
        [files, LANGS],
        [last ? [last] : [], langs],
      ] as const)
        for (const send of ['file', 'audio'] as const) {
          const these = batch.filter((f) => f.send === send).map((f) => f.file);
          if (these.length === 0) continue;
          const args = ['add', ...these, '--to', to.join(','), '--api', api, '--send', send, '--out', out];
          const added = await runCli(args, env);
          if (added.code !== 0) throw new Error(`add failed: ${added.stderr}`);
        }
    }

    const start = (): Run => {
      runs++;
      const child = spawn(
        process.execPath,
        [
          '--import',
          FAKE_CLOCK,
          CLI,
          'run',
          '--until-done',
          '--concurrency',
          String(CONCURRENCY),
          '--poll-interval',
          '0.2',
        ],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const done = new Promise<CliResult>((resolve) =>
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
      );
      const changes = (n: number) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (stderr.split('\n').length - 1 < n) return;
            child.stderr.off('data', check);
            resolve();
          };
          child.stderr.on('data', check);
          void done.then(() => resolve());
        });
      return { kill: () => child.kill('SIGKILL'), signal: (s) => child.kill(s), changes, done };
    };
    /** After a run: failed jobs (a dub failed on the service, or a step gave up) are tried again. */
    const settle = async (r: CliResult): Promise<'done' | 'again'> => {
      if (r.signal === 'SIGKILL') return 'again';
      if (![0, 1, 4, 5].includes(r.code ?? -1))
        problems.push(`run ended with ${r.code}: ${r.stderr.slice(-2000)}`);
      const failed = JSON.parse((await runCli(['status', '--failed', '--json'], env)).stdout) as { jobs: [] };
      if (failed.jobs.length) {
        retriedFailed += failed.jobs.length;
        await runCli(['retry', '--failed'], env);
        return 'again';
      }
      // 5: the service did not answer at the start (injected resets); go on.
      return r.code === 0 ? 'done' : 'again';
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    // Runs killed at random moments: right after a random number of job changes (mid-upload, just after a
    // create, mid-download…) and a random part of a step more, so start-up on a busy machine, however long,
    // is not where the kills land. Half way, the clock jumps during one of them.
    let jumped = false;
    for (let i = 0; kills < o.kills && i < o.kills * 2; i++) {
      const t0 = Date.now();
      const run = start();
      const jumpHere: boolean = !jumped && kills >= Math.floor(o.kills / 2);
      jumped ||= jumpHere;
      const after = 1 + Math.floor(random() * 2);
      const delay = Math.floor(random() * 100);
      void run.changes(after).then(async () => {
        await sleep(delay);
        if (!jumpHere) run.kill();
      });
      if (jumpHere) {
        await run.changes(after);
        await sleep(delay);
        const host = openDubdesk({ home: join(work, 'home'), face: 'cli' });
        waitingAtJump = (await host.api.totals()).left;
        await host.close();
        // The sandbox first, then the engine: the service's clock is never behind the client's.
        sb.advanceClock((o.jumpHours ?? 3) * 3600);
        writeFileSync(clockFile, String((o.jumpHours ?? 3) * 3600 * 1000));
        run.signal('SIGUSR2');
        jumpAt = Date.now();
        log(
          `clock jumped ${o.jumpHours ?? 3} h forward during run ${runs} (${waitingAtJump} jobs unfinished)`,
        );
        await sleep(2500);
        run.kill();
      }
      const r = await run.done;
      if (r.signal === 'SIGKILL') kills++;
      log(
        `run ${runs}: ${r.signal ?? `exit ${r.code}`} after ${Date.now() - t0} ms, ${r.stderr.split('\n').length - 1} lines`,
      );
      if (jumpHere) log(`  what it said:\n${r.stderr.trimEnd()}`);
      if ((await settle(r)) === 'done') break;
    }
    // Then to the end, without kills.
    for (let round = 0; round < 20; round++) {
      const r = await start().done;
      log(`final run ${round + 1}: exit ${r.code}`);
      if ((await settle(r)) === 'done') break;
    }

    // What the queue says, against what the service did.
    const host = openDubdesk({ home: join(work, 'home'), face: 'cli' });
    const jobs: JobView[] = (await host.api.listJobs({ limit: 500 })).jobs;
    await host.close();
    if (jobs.length !== o.jobs) problems.push(`${jobs.length} jobs in the queue, not ${o.jobs}`);
    for (const j of jobs.filter((x) => x.state !== 'completed'))
      problems.push(`job ${j.id} ended ${j.state}: ${j.error?.message ?? ''}`);
    const completedDubs = [...sb.state.dubs.values()].filter(
      (d) => d.externalStatusId === ExternalStatus.Completed,
    );
    const mine = new Set(jobs.map((j) => j.remoteId));
    if (completedDubs.length !== jobs.length)
      problems.push(`${completedDubs.length} dubs completed on the service for ${jobs.length} jobs`);
    for (const d of completedDubs)
      if (!mine.has(d.id)) problems.push(`dub ${d.id} completed (and was charged) but no job has it`);
    const charged = sb.state.ledger.map((c) => c.dubId);
    if (new Set(charged).size !== charged.length) problems.push('a dub was charged twice');
    if ([...mine].some((id) => !charged.includes(id ?? '')))
      problems.push('a completed job was never charged');
    for (const j of jobs) {
      const dub = j.remoteId ? sb.state.dubs.get(j.remoteId) : undefined;
      for (const output of j.outputs) {
        // Made here from the source's picture and the dubbed sound: the picture is the source's, bit for bit.
        if (j.sourceName.includes(SOUND_ALONE) && output.type === 'translated_mp4') {
          if (videoMd5(output.path) !== videoMd5(j.source))
            problems.push(`${output.path}: its picture is not the source's`);
          continue;
        }
        const served = dub?.artifacts?.[output.type as OutputType]?.path;
        if (!served || !readFileSync(output.path).equals(readFileSync(served)))
          problems.push(`${output.path} is not what the service served`);
      }
      if (j.outputs.length !== 2) problems.push(`job ${j.id} has ${j.outputs.length} outputs`);
    }
    const leftovers = readdirSync(out).filter((f) => f.endsWith('.part') || / \(\d+\)\./.test(f));
    if (leftovers.length) problems.push(`left in the output folder: ${leftovers.join(', ')}`);

    const maxInFlightAfterJump = jumpAt ? proxy.maxInFlight(jumpAt, jumpAt + 2500) : 0;
    // Uploads and downloads (each up to the concurrency) and one poll, plus two for a worker's next call
    // starting as the relay still closes its last: whatever the number of jobs waiting when the clock jumped.
    if (maxInFlightAfterJump > 2 * CONCURRENCY + 3)
      problems.push(`${maxInFlightAfterJump} requests at once after the clock jump`);
    keepWork = problems.length > 0;
    if (keepWork) log(`the run's files are kept in ${work}`);
    return {
      seconds: (Date.now() - started) / 1000,
      jobs: jobs.length,
      byGeneration,
      soundAlone: jobs.filter((j) => j.sourceName.includes(SOUND_ALONE)).length,
      kills,
      runs,
      retriedFailed,
      faultsFired: { ...sb.faults.fired },
      requests: proxy.spans.length,
      waitingAtJump,
      maxInFlightAfterJump,
      requestsAfterJump: proxy.spans.filter((s) => s.start >= jumpAt && s.start < jumpAt + 2500).length,
      dubsStarted: [...sb.state.dubs.values()].filter((d) => d.queuedAt !== null).length,
      charges: sb.state.ledger.length,
      problems,
    };
  } finally {
    await proxy.close();
    await sb.stop();
    if (!keepWork) rmSync(work, { recursive: true, force: true });
  }
}
