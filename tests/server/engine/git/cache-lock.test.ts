import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCacheLock } from '../../../../src/server/engine/git/cache-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'cache-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A lock folder as another process holding it leaves it. */
function heldBy(path: string, pid: number): void {
  mkdirSync(path);
  writeFileSync(join(path, 'pid'), String(pid));
}

/** Resolves once `fn` is true, looking every 20 ms. */
async function until(fn: () => boolean): Promise<void> {
  while (!fn()) await new Promise((r) => setTimeout(r, 20));
}

describe('the object cache lock', () => {
  it('lets the runs of this process hold it one at a time, in the order they asked, and leaves no folder', async () => {
    const lock = join(dir, 'order.lock');
    const events: string[] = [];
    let release!: () => void;
    const first = withCacheLock(lock, undefined, async () => {
      events.push('first in');
      await new Promise<void>((r) => { release = r; });
      events.push('first out');
    });
    const second = withCacheLock(lock, undefined, async () => { events.push('second'); });
    const third = withCacheLock(lock, undefined, async () => { events.push('third'); return 3; });
    await until(() => events.length > 0);
    expect(existsSync(lock)).toBe(true);
    expect(events).toEqual(['first in']);
    release();
    expect(await Promise.all([first, second, third])).toEqual([undefined, undefined, 3]);
    expect(events).toEqual(['first in', 'first out', 'second', 'third']);
    expect(existsSync(lock)).toBe(false);
  });

  it('frees the lock for the next run when a holder throws', async () => {
    const lock = join(dir, 'throws.lock');
    await expect(withCacheLock(lock, undefined, async () => { throw new Error('fetch failed'); })).rejects.toThrow('fetch failed');
    expect(await withCacheLock(lock, undefined, async () => 'next')).toBe('next');
  });

  it('waits while another live process holds it, and takes over a lock whose process is gone', async () => {
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const lock = join(dir, 'other.lock');
      heldBy(lock, other.pid!);
      let ran = false;
      const waiting = withCacheLock(lock, undefined, async () => { ran = true; });
      await new Promise((r) => setTimeout(r, 300));
      expect(ran).toBe(false);
      rmSync(lock, { recursive: true });
      await waiting;
      expect(ran).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }
    const gone = spawn('true');
    await new Promise((r) => gone.once('exit', r));
    const stale = join(dir, 'stale.lock');
    heldBy(stale, gone.pid!);
    expect(await withCacheLock(stale, undefined, async () => 'taken over')).toBe('taken over');
  });

  it('gives up waiting when the run is stopped, and the runs behind it still get their turn', async () => {
    const lock = join(dir, 'stop.lock');
    let release!: () => void;
    const holder = withCacheLock(lock, undefined, () => new Promise<void>((r) => { release = r; }));
    await until(() => existsSync(lock));
    const stop = new AbortController();
    const stopped = withCacheLock(lock, stop.signal, async () => 'ran');
    const behind = withCacheLock(lock, undefined, async () => 'behind ran');
    stop.abort(new Error('task stopped'));
    await expect(stopped).rejects.toThrow('task stopped');
    release();
    await holder;
    expect(await behind).toBe('behind ran');
  });
});
