import type { Db } from '../db/database.ts';

/** What opened a socket: a cookie session or an API token, both by their stored hash. */
export interface SocketCredential {
  userId: number;
  sessionId: string | undefined;
  tokenHash: string | undefined;
}

/** What a socket may receive now: nothing once its credential ended, else by admin flag and memberships. */
export interface SocketAccess {
  live: boolean;
  admin: boolean;
  projects: ReadonlySet<number>;
}

const ENDED: SocketAccess = { live: false, admin: false, projects: new Set() };

/**
 * Reads, for every open socket at once, whether the session or token that opened it still
 * stands (not signed out, revoked, deleted or expired; its user not deleted) and what its user
 * may see now: four queries however many sockets are open.
 */
export async function loadSocketAccess<C extends SocketCredential>(db: Db, credentials: readonly C[]): Promise<Map<C, SocketAccess>> {
  const sessionIds = unique(credentials.map((c) => c.sessionId));
  const tokenHashes = unique(credentials.map((c) => c.tokenHash));
  const userIds = unique(credentials.map((c) => c.userId));
  const [sessions, tokens, users, members] = await Promise.all([
    sessionIds.length ? db.selectFrom('session').select('id').where('id', 'in', sessionIds).where('expired', '=', 0).where('verified', '=', 1).execute() : [],
    tokenHashes.length ? db.selectFrom('api_token').select(['hash', 'expires_at']).where('hash', 'in', tokenHashes).where('expired', '=', 0).execute() : [],
    userIds.length ? db.selectFrom('user').select(['id', 'admin']).where('id', 'in', userIds).execute() : [],
    userIds.length ? db.selectFrom('project_user').select(['user_id', 'project_id']).where('user_id', 'in', userIds).execute() : [],
  ]);
  const liveSessions = new Set(sessions.map((s) => s.id));
  const liveTokens = new Set(tokens.filter((t) => !t.expires_at || Date.parse(t.expires_at) > Date.now()).map((t) => t.hash));
  const admins = new Map(users.map((u) => [u.id, Boolean(u.admin)]));
  const projects = new Map<number, Set<number>>();
  for (const m of members) projects.set(m.user_id, (projects.get(m.user_id) ?? new Set()).add(m.project_id));

  const access = new Map<C, SocketAccess>();
  for (const c of credentials) {
    const credentialLive = c.sessionId !== undefined ? liveSessions.has(c.sessionId) : c.tokenHash !== undefined && liveTokens.has(c.tokenHash);
    access.set(c, credentialLive && admins.has(c.userId)
      ? { live: true, admin: admins.get(c.userId)!, projects: projects.get(c.userId) ?? new Set() }
      : ENDED);
  }
  return access;
}

export function mayReceive(access: SocketAccess | null, projectId: number): boolean {
  return Boolean(access?.live) && (access!.admin || access!.projects.has(projectId));
}

function unique<T>(values: Array<T | undefined>): T[] {
  return [...new Set(values.filter((v): v is T => v !== undefined))];
}
