import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  inSendWindow,
  nextWindowEnd,
  nextWindowStart,
  SendWindowSchema,
  type SendWindow,
} from '../../shared/schedule';

const night: SendWindow = { from: '22:00', to: '07:00' };
const office: SendWindow = { from: '09:00', to: '17:30' };

describe('the sending window, in local time', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'Europe/Berlin';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('spans midnight when it ends before it starts', () => {
    // Berlin is UTC+1 in January.
    expect(inSendWindow(night, new Date('2026-01-15T20:59:00Z'))).toBe(false); // 21:59
    expect(inSendWindow(night, new Date('2026-01-15T21:00:00Z'))).toBe(true); // 22:00
    expect(inSendWindow(night, new Date('2026-01-15T23:30:00Z'))).toBe(true); // 00:30 the next day
    expect(inSendWindow(night, new Date('2026-01-16T05:59:00Z'))).toBe(true); // 06:59
    expect(inSendWindow(night, new Date('2026-01-16T06:00:00Z'))).toBe(false); // 07:00: closed
    expect(inSendWindow(office, new Date('2026-01-16T16:29:00Z'))).toBe(true); // 17:29
    expect(inSendWindow(office, new Date('2026-01-16T16:30:00Z'))).toBe(false); // 17:30
  });

  it('says when work waiting outside the window may go, and when the window closes', () => {
    const noon = new Date('2026-01-15T11:00:00Z'); // 12:00 in Berlin
    expect(nextWindowStart(night, noon).toISOString()).toBe('2026-01-15T21:00:00.000Z');
    const lateNight = new Date('2026-01-15T23:30:00Z'); // 00:30: open now
    expect(nextWindowStart(night, lateNight)).toBe(lateNight);
    expect(nextWindowEnd(night, lateNight).toISOString()).toBe('2026-01-16T06:00:00.000Z');
    const evening = new Date('2026-01-15T17:00:00Z'); // 18:00: the office window opens tomorrow
    expect(nextWindowStart(office, evening).toISOString()).toBe('2026-01-16T08:00:00.000Z');
  });

  it('reads the clock of the time zone Dubdesk runs in', () => {
    const instant = new Date('2026-01-15T21:30:00Z');
    expect(inSendWindow(night, instant)).toBe(true); // 22:30 in Berlin
    process.env.TZ = 'America/New_York';
    expect(inSendWindow(night, instant)).toBe(false); // 16:30
    expect(nextWindowStart(night, instant).toISOString()).toBe('2026-01-16T03:00:00.000Z');
    process.env.TZ = 'Asia/Tokyo';
    expect(inSendWindow(night, instant)).toBe(true); // 06:30 the next morning
    expect(nextWindowEnd(night, instant).toISOString()).toBe('2026-01-15T22:00:00.000Z');
  });

  it('keeps to the wall clock across a change to summer time', () => {
    // 29 March 2026: Berlin's clocks go from 02:00 straight to 03:00.
    const window = SendWindowSchema.parse({ from: '2:30', to: '4:00' });
    const before = new Date('2026-03-28T23:00:00Z'); // 00:00 CET
    const start = nextWindowStart(window, before);
    // 02:30 does not exist that night: the window opens at the first minute after the jump.
    expect(start.toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(inSendWindow(window, start)).toBe(true);
    // The next night it opens at 02:30 summer time again.
    expect(nextWindowStart(window, new Date('2026-03-29T12:00:00Z')).toISOString()).toBe(
      '2026-03-30T00:30:00.000Z',
    );
  });

  it('refuses a window it cannot read, with what to write instead', () => {
    expect(SendWindowSchema.parse({ from: '7:30', to: '22:00' })).toEqual({ from: '07:30', to: '22:00' });
    for (const bad of [
      { from: '24:00', to: '07:00' },
      { from: '22', to: '07:00' },
      { from: '22:00', to: '22:00' },
      { from: '22:00', to: '7:60' },
      { from: '22:00' },
    ]) {
      const r = SendWindowSchema.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
    }
    expect(SendWindowSchema.safeParse({ from: 'ten', to: '07:00' }).error?.issues[0]?.message).toBe(
      'a time of day such as 22:00 or 7:30',
    );
  });
});
