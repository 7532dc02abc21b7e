/** Keeps the machine awake while bytes move, and wakes the engine when the machine wakes. */
import type { QueueTotals } from '../../shared/contract/queue';
import { transfers } from './queue-status';

export interface Blocker {
  start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number;
  stop(id: number): boolean;
}
export interface PowerEvents {
  on(event: 'resume', listener: () => void): unknown;
}

export class AwakeWhileTransferring {
  private id: number | null = null;

  constructor(private readonly blocker: Blocker) {}

  update(t: QueueTotals): void {
    const busy = transfers(t) > 0;
    if (busy && this.id === null) this.id = this.blocker.start('prevent-app-suspension');
    else if (!busy) this.release();
  }

  get holding(): boolean {
    return this.id !== null;
  }

  release(): void {
    if (this.id === null) return;
    this.blocker.stop(this.id);
    this.id = null;
  }
}

/** After sleep, poll at once instead of at the end of an interval that slept too. */
export function wakeOnResume(power: PowerEvents, wake: () => void): void {
  power.on('resume', wake);
}
