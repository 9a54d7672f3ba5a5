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
/**
 * Failures from one address across all accounts (password spraying). Past it the address is
 * "noisy": each account it tries keeps only its first attempt free, so a right password for
 * an account not yet tried from there still signs in, while a second guess waits.
 */
const MAX_FAILURES_PER_ADDRESS = 20;
const FREE_FAILURES_FROM_NOISY_ADDRESS = 1;

/** What the checks saw of the address: past its limit, its failures are audited as one row. */
export interface LoginCheck { noisyAddress: boolean }

/**
 * Refuses with 429 and Retry-After while this address must wait before trying this account
 * again (5 free failures, 1 from a noisy address, then 30 s, 60 s, 120 s … up to the 15-minute
 * window), or while the account has failed very often from everywhere. Failures for other
 * accounts, or from other addresses, never block a right password of this one from here.
 */
export async function checkLoginAllowed(db: Db, account: string, address: string): Promise<LoginCheck> {
  const since = new Date(Date.now() - WINDOW_MS).toISOString();
  const failuresOf = async (subject: string) => (await db.selectFrom('login_attempt').select('created')
    .where('subject', '=', subject).where('created', '>', since).orderBy('created').execute()).map((r) => Date.parse(r.created));

  const noisyAddress = (await failuresOf(addressSubject(address))).length >= MAX_FAILURES_PER_ADDRESS;
  const free = noisyAddress ? FREE_FAILURES_FROM_NOISY_ADDRESS : FREE_FAILURES_PER_PAIR;
  const pair = await failuresOf(pairSubject(account, address));
  if (pair.length >= free) {
    const delay = Math.min(WINDOW_MS, FIRST_DELAY_MS * 2 ** (pair.length - free));
    refuseUntil(pair[pair.length - 1]! + delay);
  }
  const everywhere = await failuresOf(accountSubject(account));
  if (everywhere.length >= MAX_FAILURES_PER_ACCOUNT) refuseUntil(everywhere[everywhere.length - MAX_FAILURES_PER_ACCOUNT]! + WINDOW_MS);
  return { noisyAddress };
}

/**
 * Whether this address's refused or noisy attempts should be audited now: true for the first
 * of each window (the caller writes one row that stands for the rest), false after that.
 */
export async function firstThrottledInWindow(db: Db, address: string): Promise<boolean> {
  const since = new Date(Date.now() - WINDOW_MS).toISOString();
  const subject = `audited:${address}`;
  const seen = await db.selectFrom('login_attempt').select('created').where('subject', '=', subject).where('created', '>', since).executeTakeFirst();
  if (seen) return false;
  await db.insertInto('login_attempt').values({ subject, created: now() }).execute();
  return true;
}

/** How long one aggregated audit row stands for an address's throttled attempts. */
export const THROTTLE_WINDOW_MINUTES = WINDOW_MS / 60_000;

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
