/**
 * The main process's handle on the engine in its utility process: a DubdeskApi whose calls cross to it,
 * the event stream, and the few controls the shell needs (wake after sleep, hold, stop).
 */
import { DubdeskError, type ContractError } from '../../shared/contract/errors';
import type { DubdeskApi, MethodName } from '../../shared/contract/methods';
import { callerOf } from '../../shared/contract/proxy';
import type { PipedOutput } from './engine-output';
import type { EngineInit, FromEngine, ToEngine } from './engine-protocol';
import { EventFanout } from './event-fanout';

/** What `utilityProcess.fork` returns, as far as the client uses it (its pipes, when it has them). */
export interface EngineChild extends PipedOutput {
  postMessage(message: ToEngine): void;
  on(event: 'message', listener: (message: FromEngine) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export interface WorkerState {
  running: boolean;
  error: ContractError | null;
}

const gone = () => new DubdeskError('internal', 'the engine stopped unexpectedly; it is being started again');

export class EngineClient {
  readonly api: DubdeskApi;
  private child: EngineChild | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void }
  >();
  private readonly events = new EventFanout();
  private stopped: (() => void) | null = null;
  private stopping = false;
  private restarts = 0;
  onWorker: (state: WorkerState) => void = () => {};
  /** The engine died and could not be started again. */
  onFatal: (error: ContractError) => void = () => {};

  constructor(
    private readonly fork: () => EngineChild,
    private readonly init: EngineInit,
  ) {
    const subscribe = this.events.subscribe.bind(this.events);
    this.api = { ...callerOf((name, arg) => this.call(name, arg)), subscribe };
  }

  /** Starts the engine; resolves once it answers, rejects with why it could not open. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = this.fork();
      this.child = child;
      let ready = false;
      child.on('message', (m: FromEngine) => {
        switch (m.type) {
          case 'ready':
            ready = true;
            resolve();
            return;
          case 'failed':
            reject(DubdeskError.from(m.error));
            return;
          case 'reply': {
            const p = this.pending.get(m.id);
            this.pending.delete(m.id);
            if (m.reply.ok) p?.resolve(m.reply.value);
            else p?.reject(DubdeskError.from(m.reply.error));
            return;
          }
          case 'event':
            this.events.emit(m.event);
            return;
          case 'worker':
            this.onWorker({ running: m.running, error: m.error });
            return;
          case 'stopped':
            this.stopped?.();
            return;
        }
      });
      child.on('exit', () => {
        this.child = null;
        for (const p of this.pending.values()) p.reject(gone());
        this.pending.clear();
        if (this.stopping) return this.stopped?.();
        if (!ready) return reject(new DubdeskError('internal', 'the engine could not start'));
        // A crash: start again (every job resumes from what it recorded), a few times at most.
        if (++this.restarts > 3) return this.onFatal(gone().toJSON());
        this.start().catch((e: unknown) => this.onFatal(DubdeskError.from(toError(e)).toJSON()));
      });
      child.postMessage({ type: 'init', init: this.init });
    });
  }

  private call(method: MethodName, arg: unknown): Promise<unknown> {
    return this.ask((id) => ({ type: 'call', id, method, arg }));
  }

  /** A message the engine answers with a reply of the same id. */
  private ask(message: (id: number) => ToEngine): Promise<unknown> {
    const child = this.child;
    if (!child || this.stopping)
      return Promise.reject(new DubdeskError('internal', 'the engine is not running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      child.postMessage(message(id));
    });
  }

  /** The report Help > Copy Diagnostics copies: the doctor's lines and the log's tail, keys redacted. */
  async diagnostics(): Promise<string> {
    const report = await this.ask((id) => ({ type: 'diagnose', id }));
    if (typeof report !== 'string') throw new DubdeskError('internal', 'the engine sent no diagnostics');
    return report;
  }

  /** After sleep: poll the service and retry network waits now. */
  wake(): void {
    this.child?.postMessage({ type: 'wake' });
  }

  /** While on, nothing new starts and running steps end after their current HTTP call. */
  hold(on: boolean): void {
    this.child?.postMessage({ type: 'hold', on });
  }

  /** Stops the engine: HTTP calls in flight finish (cut after `graceMs`), the queue is closed cleanly. */
  stop(graceMs: number): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    this.stopping = true;
    return new Promise((resolve) => {
      // An engine that does not finish in time is ended: the queue resumes from what it recorded.
      const overdue = setTimeout(() => child.kill(), graceMs + 10_000);
      this.stopped = () => {
        clearTimeout(overdue);
        resolve();
      };
      child.postMessage({ type: 'stop', graceMs });
    });
  }
}

function toError(e: unknown): ContractError {
  return e instanceof DubdeskError ? e.toJSON() : { code: 'internal', message: String(e) };
}
