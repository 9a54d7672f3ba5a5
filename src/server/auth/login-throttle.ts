import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { now } from '../lib/time.ts';

const WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords one address may try for one account before waiting; each later one doubles the wait. */
const FREE_FAILURES_PER_PAIR = 5;
const FIRST_DELAY_MS = 30 * 1000;
/**
 * Failures for one account from all addresses together: far above what one address can reach
 * with its growing delays, so only a spread-out attack stops the account's sign-in.
 */
const MAX_FAILURES_PER_ACCOUNT = 100;
/** Failures from one address across all accounts (password spraying). */
const MAX_FAILURES_PER_ADDRESS = 20;

/**
 * Refuses with 429 and Retry-After while this address must wait before trying this account
 * again (5 free failures, then 30 s, 60 s, 120 s … up to the 15-minute window), while the
 * account has failed very often from everywhere, or while the address has failed too often
 * across accounts. Failures from other addresses do not lock a user out of their own.
 */
export async function checkLoginAllowed(db: Db, account: string, address: string): Promise<void> {
  const since = new Date(Date.now() - WINDOW_MS).toISOString();
  const failuresOf = async (subject: string) => (await db.selectFrom('login_attempt').select('created')
    .where('subject', '=', subject).where('created', '>', since).orderBy('created').execute()).map((r) => Date.parse(r.created));

  const pair = await failuresOf(pairSubject(account, address));
  if (pair.length >= FREE_FAILURES_PER_PAIR) {
    const delay = Math.min(WINDOW_MS, FIRST_DELAY_MS * 2 ** (pair.length - FREE_FAILURES_PER_PAIR));
    refuseUntil(pair[pair.length - 1]! + delay);
  }
  for (const [subject, limit] of [[accountSubject(account), MAX_FAILURES_PER_ACCOUNT], [addressSubject(address), MAX_FAILURES_PER_ADDRESS]] as const) {
    const failures = await failuresOf(subject);
    if (failures.length >= limit) refuseUntil(failures[failures.length - limit]! + WINDOW_MS);
  }
}

function refuseUntil(at: number): void {
  const retryAfter = Math.ceil((at - Date.now()) / 1000);
  if (retryAfter <= 0) return;
  throw new ApiError('too_many', 'too many failed sign-in attempts; try again later', {}, { 'Retry-After': String(retryAfter) });
}

export async function recordLoginFailure(db: Db, account: string, address: string): Promise<void> {
  const created = now();
  await db.insertInto('login_attempt').values([
    { subject: pairSubject(account, address), created }, { subject: accountSubject(account), created }, { subject: addressSubject(address), created },
  ]).execute();
}

/** A successful sign-in forgets this address's failures for the account. */
export async function clearLoginFailures(db: Db, account: string, address: string): Promise<void> {
  await db.deleteFrom('login_attempt').where('subject', '=', pairSubject(account, address)).execute();
}

const accountSubject = (account: string) => `user:${account.trim().toLowerCase()}`;
const addressSubject = (address: string) => `ip:${address}`;
const pairSubject = (account: string, address: string) => `pair:${account.trim().toLowerCase()}@${address}`;
