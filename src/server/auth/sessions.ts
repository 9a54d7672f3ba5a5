import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import { now } from '../lib/time.ts';
import { hashSecretToken, newSessionToken } from '../access/tokens.ts';

export const SESSION_COOKIE = 'semaphore';
const IDLE_LIMIT_MS = 7 * 24 * 3600 * 1000;
/** last_active is refreshed at most this often, so reads do not turn into writes. */
const TOUCH_EVERY_MS = 60 * 1000;

/**
 * Starts a session and returns the cookie value (only its hash is stored). With `pendingFactor`
 * the session is unverified: it can only verify itself until the second factor is given.
 */
export async function startSession(db: Db, userId: number, ip: string, userAgent: string, pendingFactor?: 'totp'): Promise<string> {
  const token = newSessionToken();
  const at = now();
  await db.insertInto('session').values({
    id: hashSecretToken(token), user_id: userId, created: at, last_active: at,
    ip: ip.slice(0, 100), user_agent: userAgent.slice(0, 500), expired: 0,
    verified: pendingFactor ? 0 : 1, verification_method: pendingFactor ?? 'none',
  }).execute();
  return token;
}

/** The user behind a cookie value, or null when unknown, ended or idle for over 7 days. */
export async function userForSession(db: Db, token: string): Promise<{ user: UserRow; sessionId: string; verified: boolean } | null> {
  const sessionId = hashSecretToken(token);
  const session = await db.selectFrom('session').selectAll().where('id', '=', sessionId).executeTakeFirst();
  if (!session || session.expired) return null;
  const idle = Date.now() - Date.parse(session.last_active);
  if (idle > IDLE_LIMIT_MS) {
    await db.updateTable('session').set({ expired: 1 }).where('id', '=', sessionId).execute();
    return null;
  }
  const user = await db.selectFrom('user').selectAll().where('id', '=', session.user_id).executeTakeFirst();
  if (!user) return null;
  if (idle > TOUCH_EVERY_MS) await db.updateTable('session').set({ last_active: now() }).where('id', '=', sessionId).execute();
  return { user, sessionId, verified: Boolean(session.verified) };
}

export async function markSessionVerified(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('session').set({ verified: 1 }).where('id', '=', sessionId).execute();
}

export async function endSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('session').set({ expired: 1 }).where('id', '=', sessionId).execute();
}

/** The user behind a bearer token, or null when unknown, deleted or past expires_at. */
export async function userForApiToken(db: Db, token: string): Promise<UserRow | null> {
  const row = await db.selectFrom('api_token').selectAll().where('hash', '=', hashSecretToken(token)).executeTakeFirst();
  if (!row || row.expired) return null;
  if (row.expires_at && Date.parse(row.expires_at) <= Date.now()) return null;
  return (await db.selectFrom('user').selectAll().where('id', '=', row.user_id).executeTakeFirst()) ?? null;
}

/** How many leading characters of a session's hash lists show and DELETE accepts as its id. */
const SESSION_ID_LENGTH = 16;

/** A session as the user's own list shows it; `current` marks the one asking. */
export interface SessionSummary {
  id: string;
  created: string;
  last_active: string;
  ip: string;
  user_agent: string;
  current: boolean;
}

/** The user's live sessions (not ended, not idle past the limit), most recently used first. */
export async function listSessions(db: Db, userId: number, currentId: string | undefined): Promise<SessionSummary[]> {
  const since = new Date(Date.now() - IDLE_LIMIT_MS).toISOString();
  const rows = await db.selectFrom('session').select(['id', 'created', 'last_active', 'ip', 'user_agent'])
    .where('user_id', '=', userId).where('expired', '=', 0).where('verified', '=', 1).where('last_active', '>', since)
    .orderBy('last_active', 'desc').execute();
  return rows.map((row) => ({ ...row, id: row.id.slice(0, SESSION_ID_LENGTH), current: row.id === currentId }));
}

/** Ends one of the user's sessions by its listed id; false when none matched. */
export async function revokeSession(db: Db, userId: number, listedId: string): Promise<boolean> {
  if (!/^[0-9a-f]{16}$/.test(listedId)) return false;
  const result = await db.updateTable('session').set({ expired: 1 })
    .where('user_id', '=', userId).where('expired', '=', 0).where('id', 'like', `${listedId}%`).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
