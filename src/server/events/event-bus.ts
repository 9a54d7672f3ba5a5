import { EventEmitter } from 'node:events';

/** What the task engine announces; the websocket hub and the console subscribe. */
export type BusMessage =
  | { type: 'update'; project_id: number; task_id: number; template_id: number; status: string; start: string | null; end: string | null; version: string | null }
  | { type: 'log'; project_id: number; task_id: number; time: string; output: string }
  /** a workflow run changed (a node started or ended, an approval was decided); `due`: the next timer of the run, if any */
  | { type: 'workflow'; project_id: number; workflow_id: number; run_id: number; status: string; due: string | null };

/**
 * Publish/subscribe for live task updates. Publishers never wait for subscribers.
 *
 * Several servers on one PostgreSQL database share their messages through a relay
 * (`pg-relay.ts`): what is published here is also handed to the relay, and what other servers
 * published arrives through `receive`. `subscribe` hears both (websocket clients, running jobs
 * that must see a stop asked for on another server, dispatchers woken by a task queued
 * elsewhere); `subscribeLocal` hears only this process's own messages (alerts, metrics: things
 * that must happen once per task, on the server that runs it).
 * @example bus.subscribe((m) => console.log(m.type)); bus.publish({ type: 'log', ... });
 */
export class EventBus {
  readonly #emitter = new EventEmitter().setMaxListeners(0);
  #relay: ((message: BusMessage) => void) | null = null;

  publish(message: BusMessage): void {
    this.#emitter.emit('local', message);
    this.#relay?.(message);
  }

  /** Messages published here and, when relayed, on the other servers. */
  subscribe(listener: (message: BusMessage) => void): () => void {
    this.#emitter.on('local', listener);
    this.#emitter.on('remote', listener);
    return () => {
      this.#emitter.off('local', listener);
      this.#emitter.off('remote', listener);
    };
  }

  /** Only the messages published in this process. */
  subscribeLocal(listener: (message: BusMessage) => void): () => void {
    this.#emitter.on('local', listener);
    return () => this.#emitter.off('local', listener);
  }

  /** Hands every message published from now on to `send` too (one relay at a time); returns the detach. */
  relayTo(send: (message: BusMessage) => void): () => void {
    this.#relay = send;
    return () => {
      if (this.#relay === send) this.#relay = null;
    };
  }

  /** A message another server published: delivered to `subscribe` listeners only, never relayed back. */
  receive(message: BusMessage): void {
    this.#emitter.emit('remote', message);
  }
}
