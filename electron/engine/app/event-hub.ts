import type { EngineEvent, EngineEventBody, EventListener } from '../../../shared/contract/events';

/** Subscribers in order of arrival; each gets its own sequence numbers, so a gap means it missed events. */
export class EventHub {
  private readonly listeners = new Map<EventListener, { seq: number }>();

  subscribe(listener: EventListener): () => void {
    this.listeners.set(listener, { seq: 0 });
    return () => {
      this.listeners.delete(listener);
    };
  }

  get size(): number {
    return this.listeners.size;
  }

  emit(body: EngineEventBody): void {
    for (const [listener, state] of [...this.listeners]) {
      state.seq += 1;
      try {
        listener({ ...body, seq: state.seq } as EngineEvent);
      } catch {
        /* one face's listener failing must not stop the others or the engine */
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
