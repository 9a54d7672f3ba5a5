/** Resolves on a later turn of the event loop, after the I/O waiting now (requests, timers). */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A pause for long loops of awaited work that may never truly wait (SQLite answers at once):
 * it yields to the event loop once `budgetMs` of work went by since the last yield, and is
 * free otherwise. Call it once per item.
 * @example const pause = timeSlicer(); for (const item of items) { await write(item); await pause(); }
 */
export function timeSlicer(budgetMs = 10): () => Promise<void> {
  let since = performance.now();
  return async function pause() {
    if (performance.now() - since < budgetMs) return;
    await yieldToEventLoop();
    since = performance.now();
  };
}
