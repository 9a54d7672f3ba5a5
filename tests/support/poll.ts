/**
 * Reads `what` every 100 ms until `ok` holds for its answer, and answers it; throws with the
 * last answer after `timeoutMs`. For states another process reaches (a workflow run, a task).
 * @example const run = await pollUntil(() => api.get(runPath), (r) => r.status === 'success');
 */
export async function pollUntil<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await what();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(last).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await what();
  }
  return last;
}
