/** A background job that runs one pass at a time: now, when woken, and every `pollMs`. */
export interface PassLoop {
  /** runs one pass now (tests); resolves when it is done */
  drain(): Promise<void>;
  /** asks for a pass soon (after `wakeMs`), e.g. when new rows were written */
  wake(): void;
  /** no more passes; resolves when the one running is over */
  stop(): Promise<void>;
  /** true once stop() was called, for a pass to end early */
  readonly stopped: boolean;
}

/**
 * Runs `pass` beside requests, which only wake it: passes never overlap (a wake during a pass
 * runs one more after it), a failing pass is ignored (the next one tries again), and timers
 * never keep the process alive. Used by the audit export and the event webhooks, whose outboxes
 * live in the database.
 * @example const loop = startPassLoop(() => deliverDue(db), 2000); loop.wake(); await loop.stop();
 */
export function startPassLoop(pass: () => Promise<void>, pollMs: number, wakeMs = 20): PassLoop {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  const run = (): Promise<void> => {
    if (running) { again = true; return running; }
    running = pass().catch(() => {}).finally(() => {
      running = null;
      if (again && !stopped) { again = false; void run(); }
    });
    return running;
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    dueAt = Date.now() + ms;
    timer = setTimeout(() => { dueAt = Infinity; void run().then(() => schedule(pollMs)); }, ms);
    timer.unref();
  };
  // a stream of wake-ups must not put off a pass that is already due sooner
  const wake = () => { if (Date.now() + wakeMs < dueAt) schedule(wakeMs); };
  schedule(0);
  return {
    drain: () => run(),
    wake,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    get stopped() { return stopped; },
  };
}
