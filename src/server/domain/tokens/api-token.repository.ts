import type { Db } from '../../db/database.ts';
import { hashSecretToken, newApiToken } from '../../access/tokens.ts';
import { now } from '../../lib/time.ts';

/** How many leading characters of a token lists show and DELETE accepts as its id. */
export const TOKEN_ID_LENGTH = 8;

/** A token as lists show it: `id` is only the first 8 characters of the secret. */
export interface ApiToken {
  id: string;
  name: string;
  created: string;
  expired: boolean;
  expires_at: string | null;
  user_id: number;
  /** whether assistants on the MCP server may start, stop and approve with it */
  allow_write_operations: boolean;
}

interface TokenRow {
  prefix: string;
  name: string;
  created: string;
  expired: number;
  expires_at: string | null;
  user_id: number;
  allow_write_operations: number;
}

function tokenRowToApiToken(row: TokenRow): ApiToken {
  const lapsed = row.expires_at !== null && Date.parse(row.expires_at) <= Date.now();
  return { id: row.prefix, name: row.name, created: row.created, expired: Boolean(row.expired) || lapsed, expires_at: row.expires_at, user_id: row.user_id,
    allow_write_operations: Boolean(row.allow_write_operations) };
}

/**
 * Issues a token for the user; the returned object carries the full 44-character token, which
 * is stored only as a hash and never shown again.
 * @example const token = await createApiToken(db, user.id, { name: 'CI' });
 */
export async function createApiToken(db: Db, userId: number, input: { name?: string; expires_at?: string | null; allow_write_operations?: boolean }): Promise<ApiToken> {
  const token = newApiToken();
  const row = {
    hash: hashSecretToken(token), prefix: token.slice(0, TOKEN_ID_LENGTH), user_id: userId,
    name: input.name ?? '', created: now(), expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null, expired: 0,
    allow_write_operations: input.allow_write_operations ? 1 : 0,
  };
  await db.insertInto('api_token').values(row).execute();
  return { ...tokenRowToApiToken(row), id: token };
}

/** The user's tokens, newest first, with truncated ids. */
export async function listApiTokens(db: Db, userId: number): Promise<ApiToken[]> {
  const rows = await db.selectFrom('api_token').select(['prefix', 'name', 'created', 'expired', 'expires_at', 'user_id', 'allow_write_operations'])
    .where('user_id', '=', userId).orderBy('created', 'desc').execute();
  return rows.map(tokenRowToApiToken);
}

/** Deletes one of the user's tokens by its 8-character id or the full token; false when none matched. */
export async function deleteApiToken(db: Db, userId: number, idOrToken: string): Promise<boolean> {
  const value = idOrToken.toLowerCase();
  let query = db.deleteFrom('api_token').where('user_id', '=', userId);
  query = value.length === TOKEN_ID_LENGTH ? query.where('prefix', '=', value) : query.where('hash', '=', hashSecretToken(value));
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether the token with this hash was created for write operations (see `allow_write_operations`). */
export async function tokenAllowsWrites(db: Db, tokenHash: string): Promise<boolean> {
  const row = await db.selectFrom('api_token').select('allow_write_operations').where('hash', '=', tokenHash).executeTakeFirst();
  return Boolean(row?.allow_write_operations);
}
