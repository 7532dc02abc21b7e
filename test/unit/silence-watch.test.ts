import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silenceWatch } from '../../renderer/src/bridge/silence-watch';

describe('silenceWatch (the event stream’s dead-connection check)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls once when nothing was heard for the whole silence, and not while bytes keep coming', () => {
    const silent = vi.fn();
    const watch = silenceWatch(750, silent);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(500);
      watch.heard();
    }
    expect(silent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(749);
    expect(silent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(silent).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(silent).toHaveBeenCalledTimes(1);
  });

  it('never calls once stopped, nor when serve did not say its heartbeat (0)', () => {
    const stopped = vi.fn();
    silenceWatch(750, stopped).stop();
    const unknown = vi.fn();
    silenceWatch(0, unknown);
    vi.advanceTimersByTime(60_000);
    expect(stopped).not.toHaveBeenCalled();
    expect(unknown).not.toHaveBeenCalled();
  });

  it('a timer that fires late (the page was busy, the machine asleep) waits once more before it calls', () => {
    const silent = vi.fn();
    const watch = silenceWatch(750, silent);
    vi.setSystemTime(Date.now() + 5_000); // the clock moved on while no timer ran
    vi.advanceTimersByTime(750);
    expect(silent).not.toHaveBeenCalled();
    watch.heard(); // what arrived meanwhile is read now: the stream lives
    vi.advanceTimersByTime(749);
    expect(silent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(750);
    expect(silent).toHaveBeenCalledTimes(1); // then silent for a whole wait, on time: dead
  });
});
