import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest from start to end (long media jobs, kills, Chromium tours), longest first, as
 * DUBDESK_CPU_REPORT's wall column measured them. A fresh checkout has no durations cached, and vitest then
 * runs a project's larger files first and the projects one after another: a long file of few lines started
 * last and held the run open alone for a minute. The unit files run in the same vitest run as the rest
 * (scripts/test-tiers.mjs): their slowest are here too. A file missing here or gone from the suite only loses its place.
 */
const SLOWEST = [
  'test/unit/audio-path-media.test.ts',
  'test/integration/cli/crash-ffmpeg.test.ts',
  'test/integration/cli/tool-host-crash.test.ts',
  'test/integration/cli/retry-out.test.ts',
  'test/unit/package-media.test.ts',
  'test/integration/engine/tool-host-qc.test.ts',
  'test/integration/watch/settle.test.ts',
  'test/integration/cli/queue-steering.test.ts',
  'test/integration/cli/crash-audio.test.ts',
  'test/e2e/tour.test.ts',
  'test/integration/cli/failing-list.test.ts',
  'test/contract/numbers.test.ts',
  'test/integration/engine/big-source.test.ts',
  'test/integration/engine/lifecycle.test.ts',
  'test/integration/sandbox/link-rate.test.ts',
  'test/e2e/send-choice.test.ts',
  'test/e2e/qc-marks.test.ts',
  'test/e2e/screens.test.ts',
  'test/integration/cli/json-shapes.test.ts',
  'test/integration/cli/ergonomics.test.ts',
  'test/integration/desktop/packaging.test.ts',
  'test/e2e/other-process.test.ts',
  'test/integration/cli/chaos.test.ts',
  'test/unit/qc-measure.test.ts',
  'test/contract/ipc.test.ts',
];

/** Vitest's order (failed first, then longest by its cache, else largest), with the slowest files ahead. */
export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST.findIndex((path) => spec.moduleId.endsWith(path));
      return at < 0 ? SLOWEST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
