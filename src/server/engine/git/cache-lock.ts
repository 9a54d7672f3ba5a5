import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How often a run waiting for another process's lock looks again. */
const RETRY_MS = 100;

/** The runs of this process queued per lock, so they take turns without polling each other. */
const chains = new Map<string, Promise<void>>();

/**
 * Runs `fn` holding the lock `path` (a folder made with mkdir, which only one caller can make).
 * Runs of this process queue in order; another process on the machine sharing tmp_path (a
 * server beside a runner) is waited for by polling, and a lock left by a process that died is
 * taken over. Rejects when `signal` aborts while waiting.
 * @example await withCacheLock('/tmp/semaphore/repository_3_cache.lock', signal, () => fetchInto(cache));
 */
export async function withCacheLock<T>(path: string, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  const before = chains.get(path) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => { release = resolve; });
  const tail = before.then(() => mine);
  chains.set(path, tail);
  try {
    await abortable(before, signal);
    await takeFolderLock(path, signal);
    try {
      return await fn();
    } finally {
      rmSync(path, { recursive: true, force: true });
    }
  } finally {
    release();
    if (chains.get(path) === tail) chains.delete(path);
  }
}

async function takeFolderLock(path: string, signal: AbortSignal | undefined): Promise<void> {
  for (;;) {
    signal?.throwIfAborted();
    try {
      mkdirSync(path, { mode: 0o700 });
      writeFileSync(join(path, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (holderIsGone(path)) rmSync(path, { recursive: true, force: true });
    else await abortable(new Promise((resolve) => setTimeout(resolve, RETRY_MS)), signal);
  }
}

/** A lock whose process no longer runs (a crash) is stale; one just being made (no pid yet) is not. */
function holderIsGone(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then((v) => { signal.removeEventListener('abort', onAbort); resolve(v); }, (e) => { signal.removeEventListener('abort', onAbort); reject(e); });
  });
}
