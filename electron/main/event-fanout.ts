import type { EngineEvent, EventListener } from '../../shared/contract/events';

/** The engine's one stream, handed to every listener in the main process, each numbered from 1. */
export class EventFanout {
  private readonly listeners = new Map<EventListener, { seq: number }>();

  subscribe(listener: EventListener): () => void {
    const entry: EventListener = (e) => listener(e);
    this.listeners.set(entry, { seq: 0 });
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(event: EngineEvent): void {
    for (const [listener, state] of [...this.listeners]) {
      state.seq += 1;
      try {
        listener({ ...event, seq: state.seq });
      } catch {
        /* one listener failing must not stop the others */
      }
    }
  }
}
