import type { Db } from '../../db/database.ts';
import { hashSecretToken } from '../../access/tokens.ts';
import { randomBytes } from 'node:crypto';
import { now } from '../../lib/time.ts';
import type { BoardGrouping } from './board.queries.ts';

/** Board tokens start so (API tokens never do), which keeps the two kinds apart at a glance. */
export const BOARD_TOKEN_PREFIX = 'sbb_';
/** How many characters of a board token lists show. */
export const BOARD_TOKEN_ID_LENGTH = 12;

/** A board token as lists show it; `token` (the secret) only in the answer that created it. */
export interface BoardToken {
  id: number;
  prefix: string;
  name: string;
  project_ids: number[];
  by: BoardGrouping;
  view_id: number | null;
  user_id: number;
  created: string;
  token?: string;
}

/** What a board token opens: its board, seen as its creator sees it now. */
export interface BoardTokenGrant {
  hash: string;
  userId: number;
  /** the creator is a system admin */
  admin: boolean;
  projectIds: number[];
  by: BoardGrouping;
  viewId: number | null;
}

interface Row { id: number; prefix: string; name: string; project_ids: string; options: string; user_id: number; created: string }

function parseIds(text: string): number[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v) && v > 0) : [];
  } catch {
    return [];
  }
}

function parseOptions(text: string): { by: BoardGrouping; view_id: number | null } {
  try {
    const value = JSON.parse(text) as { by?: unknown; view_id?: unknown } | null;
    return { by: value?.by === 'view' ? 'view' : 'template', view_id: Number.isInteger(value?.view_id) ? Number(value!.view_id) : null };
  } catch {
    return { by: 'template', view_id: null };
  }
}

function toBoardToken(row: Row): BoardToken {
  const options = parseOptions(row.options);
  return { id: row.id, prefix: row.prefix, name: row.name, project_ids: parseIds(row.project_ids), by: options.by, view_id: options.view_id, user_id: row.user_id, created: row.created };
}

/** True for something shaped like a board token (checked before any look-up). */
export function looksLikeBoardToken(value: string): boolean {
  return /^sbb_[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * Issues a board token; the answer carries the secret once, the table keeps its hash.
 * @example const t = await createBoardToken(tx, user.id, { name: 'Ops wall', project_ids: [1], by: 'template', view_id: null });
 */
export async function createBoardToken(db: Db, userId: number, input: { name: string; project_ids: number[]; by: BoardGrouping; view_id: number | null }): Promise<BoardToken> {
  const token = BOARD_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const values = {
    hash: hashSecretToken(token), prefix: token.slice(0, BOARD_TOKEN_ID_LENGTH), user_id: userId, name: input.name,
    project_ids: JSON.stringify([...new Set(input.project_ids)].sort((a, b) => a - b)),
    options: JSON.stringify({ by: input.by, view_id: input.view_id }), created: now(),
  };
  const row = await db.insertInto('board_token').values(values).returning('id').executeTakeFirstOrThrow();
  return { ...toBoardToken({ ...values, id: row.id }), token };
}

/** Board tokens, newest first: all of them (`userId` null, for admins) or one user's. */
export async function listBoardTokens(db: Db, userId: number | null): Promise<BoardToken[]> {
  let query = db.selectFrom('board_token').select(['id', 'prefix', 'name', 'project_ids', 'options', 'user_id', 'created']).orderBy('id', 'desc');
  if (userId !== null) query = query.where('user_id', '=', userId);
  return (await query.execute()).map(toBoardToken);
}

/** Deletes a board token (one's own, or any with `userId` null); the deleted token, or undefined. */
export async function deleteBoardToken(db: Db, userId: number | null, id: number): Promise<BoardToken | undefined> {
  let query = db.selectFrom('board_token').select(['id', 'prefix', 'name', 'project_ids', 'options', 'user_id', 'created']).where('id', '=', id);
  if (userId !== null) query = query.where('user_id', '=', userId);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  await db.deleteFrom('board_token').where('id', '=', id).execute();
  return toBoardToken(row);
}

/**
 * What a presented board token opens, or null. Its projects are cut down to those its creator
 * may still see (all for an admin), so a token never outlives its creator's access.
 */
export async function boardTokenGrant(db: Db, token: string): Promise<BoardTokenGrant | null> {
  if (!looksLikeBoardToken(token)) return null;
  const hash = hashSecretToken(token);
  const row = await db.selectFrom('board_token').innerJoin('user', 'user.id', 'board_token.user_id')
    .select(['board_token.user_id', 'board_token.project_ids', 'board_token.options', 'user.admin']).where('board_token.hash', '=', hash).executeTakeFirst();
  if (!row) return null;
  const wanted = parseIds(row.project_ids);
  const options = parseOptions(row.options);
  let projectIds = wanted;
  if (!row.admin && wanted.length) {
    const member = await db.selectFrom('project_user').select('project_id').where('user_id', '=', row.user_id).where('project_id', 'in', wanted).execute();
    const allowed = new Set(member.map((m) => m.project_id));
    projectIds = wanted.filter((id) => allowed.has(id));
  }
  return { hash, userId: row.user_id, admin: Boolean(row.admin), projectIds, by: options.by, viewId: options.view_id };
}
