import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: ((options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async' }) => void) | null | undefined;

/**
 * Asks V8 for a full collection now. Long streams (an audit export of millions of rows) make
 * garbage faster than V8 would otherwise return it, so the process grows by tens of MB for a
 * while; collecting every few MB of output keeps its memory flat. A no-op where V8 refuses.
 * @example if (++rows % 20_000 === 0) collectGarbage();
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as typeof gc;
    } catch {
      gc = null;
    }
  }
  gc?.();
}
