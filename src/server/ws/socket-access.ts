import type { Db } from '../db/database.ts';

/** What opened a socket: a cookie session, an API token or a board token, each by its stored hash. */
export interface SocketCredential {
  userId: number;
  sessionId: string | undefined;
  tokenHash: string | undefined;
  /** a wall-board token: the socket hears task status changes of the token's projects only */
  boardTokenHash?: string | undefined;
}

/** What a socket may receive now: nothing once its credential ended, else by admin flag and memberships. */
export interface SocketAccess {
  live: boolean;
  admin: boolean;
  projects: ReadonlySet<number>;
  /** opened by a board token: task `update` messages only (no log lines, no workflows) */
  boardOnly?: boolean;
  /** a board token an admin made: every template of its projects (the admin flag above stays off for it) */
  seesAllTemplates?: boolean;
}

const ENDED: SocketAccess = { live: false, admin: false, projects: new Set() };

/**
 * Reads, for every open socket at once, whether the session or token that opened it still
 * stands (not signed out, revoked, deleted or expired; its user not deleted) and what its user
 * may see now: four queries however many sockets are open (five while a board token's socket is).
 */
export async function loadSocketAccess<C extends SocketCredential>(db: Db, credentials: readonly C[]): Promise<Map<C, SocketAccess>> {
  const sessionIds = unique(credentials.map((c) => c.sessionId));
  const tokenHashes = unique(credentials.map((c) => c.tokenHash));
  const boardHashes = unique(credentials.map((c) => c.boardTokenHash));
  const userIds = unique(credentials.map((c) => c.userId));
  const [sessions, tokens, users, members, boards] = await Promise.all([
    sessionIds.length ? db.selectFrom('session').select('id').where('id', 'in', sessionIds).where('expired', '=', 0).where('verified', '=', 1).execute() : [],
    tokenHashes.length ? db.selectFrom('api_token').select(['hash', 'expires_at']).where('hash', 'in', tokenHashes).where('expired', '=', 0).execute() : [],
    userIds.length ? db.selectFrom('user').select(['id', 'admin']).where('id', 'in', userIds).execute() : [],
    userIds.length ? db.selectFrom('project_user').select(['user_id', 'project_id']).where('user_id', 'in', userIds).execute() : [],
    boardHashes.length ? db.selectFrom('board_token').select(['hash', 'user_id', 'project_ids']).where('hash', 'in', boardHashes).execute() : [],
  ]);
  const boardProjects = new Map(boards.map((b) => [b.hash, { userId: b.user_id, projects: projectIdsOf(b.project_ids) }]));
  const liveSessions = new Set(sessions.map((s) => s.id));
  const liveTokens = new Set(tokens.filter((t) => !t.expires_at || Date.parse(t.expires_at) > Date.now()).map((t) => t.hash));
  const admins = new Map(users.map((u) => [u.id, Boolean(u.admin)]));
  const projects = new Map<number, Set<number>>();
  for (const m of members) projects.set(m.user_id, (projects.get(m.user_id) ?? new Set()).add(m.project_id));

  const access = new Map<C, SocketAccess>();
  for (const c of credentials) {
    if (c.boardTokenHash !== undefined) {
      access.set(c, boardAccess(boardProjects.get(c.boardTokenHash), c.userId, admins, projects));
      continue;
    }
    const credentialLive = c.sessionId !== undefined ? liveSessions.has(c.sessionId) : c.tokenHash !== undefined && liveTokens.has(c.tokenHash);
    access.set(c, credentialLive && admins.has(c.userId)
      ? { live: true, admin: admins.get(c.userId)!, projects: projects.get(c.userId) ?? new Set() }
      : ENDED);
  }
  return access;
}

/** A board token's socket: its projects that its creator (still there) may still see. */
function boardAccess(board: { userId: number; projects: number[] } | undefined, userId: number, admins: Map<number, boolean>,
  memberships: Map<number, Set<number>>): SocketAccess {
  if (!board || board.userId !== userId || !admins.has(userId)) return ENDED;
  const mine = memberships.get(userId);
  const visible = admins.get(userId) ? board.projects : board.projects.filter((id) => mine?.has(id));
  return { live: true, admin: false, projects: new Set(visible), boardOnly: true, seesAllTemplates: admins.get(userId) };
}

function projectIdsOf(text: string): number[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : [];
  } catch {
    return [];
  }
}

/** Whether a socket gets a message: by project, and a board token's socket only task status changes. */
export function mayReceive(access: SocketAccess | null, projectId: number, type: string = 'update'): boolean {
  if (access?.boardOnly && type !== 'update') return false;
  return Boolean(access?.live) && (access!.admin || access!.projects.has(projectId));
}

function unique<T>(values: Array<T | undefined>): T[] {
  return [...new Set(values.filter((v): v is T => v !== undefined))];
}
