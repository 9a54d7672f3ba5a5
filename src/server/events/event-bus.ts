import { EventEmitter } from 'node:events';

/** What the task engine announces; the websocket hub and the console subscribe. */
export type BusMessage =
  | { type: 'update'; project_id: number; task_id: number; template_id: number; status: string; start: string | null; end: string | null; version: string | null }
  | { type: 'log'; project_id: number; task_id: number; time: string; output: string };

/**
 * In-process publish/subscribe for live task updates. Publishers never wait for subscribers.
 * @example bus.subscribe((m) => console.log(m.type)); bus.publish({ type: 'log', ... });
 */
export class EventBus {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  publish(message: BusMessage): void {
    this.#emitter.emit('message', message);
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.#emitter.on('message', listener);
    return () => this.#emitter.off('message', listener);
  }
}
