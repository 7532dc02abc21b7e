// Preloaded into a CLI process (`node --import …/fake-clock.mjs`): its wall clock reads the real one plus
// the offset (ms) in the file DUBDESK_TEST_CLOCK_FILE, read at start and again on SIGUSR2. Timers and
// performance.now() keep real time, as after a laptop wakes up: the date jumped, the monotonic clock did not.
import { readFileSync } from 'node:fs';

const file = process.env.DUBDESK_TEST_CLOCK_FILE;
if (file) {
  let offset = 0;
  const read = () => {
    try {
      offset = Number(readFileSync(file, 'utf8')) || 0;
    } catch {
      offset = 0;
    }
  };
  read();
  process.on('SIGUSR2', read);
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + offset);
      else super(...args);
    }
    static now() {
      return realNow() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
}
