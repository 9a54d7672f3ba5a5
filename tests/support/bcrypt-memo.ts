// vitest `setupFiles`: bcrypt's work done once per password for the whole run, not once per
// server boot, user and sign-in. A bcrypt hash or compare costs ~0.15 s of CPU (cost 11, as real
// hashes are); a file that boots a server per test and signs in spent most of its CPU there
// (tests/README.md). The hashes stay real bcrypt of cost 11 and every compare's answer is the one
// bcrypt gives for that password and hash, so what a test sees is unchanged, except that one
// password hashed twice gets the same salt both times. A file that times bcrypt itself calls
// `realBcrypt()` (real-bcrypt.ts) first, as security/login-throttle.test.ts does.
import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject, vi } from 'vitest';
import { REAL_BCRYPT } from './real-bcrypt.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a folder where test processes share the bcrypt results they computed, or '' */
    bcryptMemoDir: string;
  }
}

vi.mock('bcryptjs', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: typeof import('bcryptjs') }).default;
  const dir = inject('bcryptMemoDir');
  const file = dir ? join(dir, `${process.pid}.jsonl`) : '';
  const known = new Map<string, string | boolean>();
  if (dir) {
    for (const name of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
        if (!line) continue;
        try {
          const [key, value] = JSON.parse(line) as [string, string | boolean];
          known.set(key, value);
        } catch { /* a line another process is still writing */ }
      }
    }
  }
  const keyOf = (...parts: (string | number)[]) => createHash('sha256').update(parts.join('\0')).digest('hex');
  const remember = (key: string, value: string | boolean) => {
    known.set(key, value);
    if (file) appendFileSync(file, `${JSON.stringify([key, value])}\n`);
  };
  const realWanted = () => (globalThis as Record<symbol, boolean>)[REAL_BCRYPT] === true;

  async function hash(plain: string, salt: number | string, ...rest: unknown[]): Promise<string> {
    if (typeof salt !== 'number' || rest.length > 0 || realWanted()) return (real.hash as (...a: unknown[]) => Promise<string>)(plain, salt, ...rest);
    const key = keyOf('hash', plain, salt);
    const found = known.get(key);
    if (typeof found === 'string') return found;
    const made = await real.hash(plain, salt);
    remember(key, made);
    remember(keyOf('compare', plain, made), true);
    return made;
  }

  async function compare(plain: string, hashed: string, ...rest: unknown[]): Promise<boolean> {
    if (rest.length > 0 || realWanted()) return (real.compare as (...a: unknown[]) => Promise<boolean>)(plain, hashed, ...rest);
    const key = keyOf('compare', plain, hashed);
    const found = known.get(key);
    if (typeof found === 'boolean') return found;
    const same = await real.compare(plain, hashed);
    remember(key, same);
    return same;
  }

  const memo = { ...real, hash, compare };
  return { ...memo, default: memo };
});

// Where files share a process (`isolate: false`) this module runs again before each file: the
// real-bcrypt flag of a file before is not this file's.
delete (globalThis as Record<symbol, boolean>)[REAL_BCRYPT];
