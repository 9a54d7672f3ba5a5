import { execFileSync, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { POOL_ACCOUNT_PREFIX } from '../../src/server/engine/process/pool-account.ts';

/** Whether any account has this uid. */
function uidTaken(uid: number): boolean {
  return spawnSync('getent', ['passwd', String(uid)], { stdio: 'ignore' }).status === 0;
}

/**
 * `size` consecutive uids no account has, picked at random so test files running at the same
 * time (each with a server pool of its own) do not share one.
 * @example const range = freeUidRange(4); // { first: 63120, last: 63123 }
 */
export function freeUidRange(size: number): { first: number; last: number } {
  for (;;) {
    const first = 62_000 + randomInt(0, 30_000);
    const uids = Array.from({ length: size }, (_, i) => first + i);
    if (!uids.some(uidTaken)) return { first, last: first + size - 1 };
  }
}

/** Deletes the pool accounts a server made in `range` (with their groups). */
export function removePoolAccounts(range: { first: number; last: number }): void {
  for (let uid = range.first; uid <= range.last; uid++) {
    const name = `${POOL_ACCOUNT_PREFIX}${uid}`;
    if (spawnSync('getent', ['passwd', name], { stdio: 'ignore' }).status === 0) execFileSync('userdel', [name], { stdio: 'ignore' });
  }
}
