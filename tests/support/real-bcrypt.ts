/** Set on globalThis by `realBcrypt()`: bcrypt-memo.ts then does the real work for every call. */
export const REAL_BCRYPT = Symbol.for('signalbox.realBcrypt');

/** From here on, this test file's bcrypt calls all do the real work (for a test that times them). */
export function realBcrypt(): void {
  (globalThis as Record<symbol, boolean>)[REAL_BCRYPT] = true;
}
