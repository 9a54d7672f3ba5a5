import type { Deps } from '../../deps.ts';
import type { EventBus } from '../../events/event-bus.ts';

/**
 * Where runners' long polls wait: any task `update` on the bus (a task queued, stopped,
 * confirmed...) wakes every waiting poll, which then looks at the database again. With the
 * database-wide bus the wake reaches polls held by every server.
 */
class RunnerHub {
  #waiters = new Set<() => void>();
  /** counts wakes, so a poll that was busy looking when one came does not sleep through it */
  seq = 0;

  constructor(bus: EventBus) {
    bus.subscribe((message) => {
      if (message.type === 'update') this.wakeAll();
    });
  }

  wakeAll(): void {
    this.seq++;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w();
  }

  /** Resolves on the next wake (at once if one came since `seen`), after `ms`, or when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal, seen = this.seq): Promise<void> {
    return new Promise<void>((resolve) => {
      if (seen !== this.seq || signal?.aborted) {
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
      signal?.addEventListener('abort', done);
    });
  }
}

const hubs = new WeakMap<EventBus, RunnerHub>();

export function runnerHub(deps: Pick<Deps, 'bus'>): RunnerHub {
  let hub = hubs.get(deps.bus);
  if (!hub) hubs.set(deps.bus, (hub = new RunnerHub(deps.bus)));
  return hub;
}
