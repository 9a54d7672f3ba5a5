import type { Db } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { now } from '../lib/time.ts';

const WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per user name, and per IP, inside the window before sign-in is refused. */
const MAX_FAILURES_PER_USER = 5;
const MAX_FAILURES_PER_IP = 20;

/** Refuses with 429 and Retry-After while a user name or an IP has failed too often recently. */
export async function checkLoginAllowed(db: Db, login: string, ip: string): Promise<void> {
  const since = new Date(Date.now() - WINDOW_MS).toISOString();
  for (const [subject, limit] of [[userSubject(login), MAX_FAILURES_PER_USER], [ipSubject(ip), MAX_FAILURES_PER_IP]] as const) {
    const rows = await db.selectFrom('login_attempt').select('created')
      .where('subject', '=', subject).where('created', '>', since).orderBy('created').execute();
    if (rows.length >= limit) {
      const oldest = Date.parse(rows[rows.length - limit]!.created);
      const retryAfter = Math.max(1, Math.ceil((oldest + WINDOW_MS - Date.now()) / 1000));
      throw new ApiError('too_many', 'too many failed sign-in attempts; try again later', {}, { 'Retry-After': String(retryAfter) });
    }
  }
}

export async function recordLoginFailure(db: Db, login: string, ip: string): Promise<void> {
  const at = now();
  await db.insertInto('login_attempt').values([{ subject: userSubject(login), created: at }, { subject: ipSubject(ip), created: at }]).execute();
}

export async function clearLoginFailures(db: Db, login: string): Promise<void> {
  await db.deleteFrom('login_attempt').where('subject', '=', userSubject(login)).execute();
}

const userSubject = (login: string) => `user:${login.trim().toLowerCase()}`;
const ipSubject = (ip: string) => `ip:${ip}`;
