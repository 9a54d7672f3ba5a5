import type { Db } from '../../src/server/db/database.ts';
import { hashPassword } from '../../src/server/access/password.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { createApiToken } from '../../src/server/domain/tokens/api-token.repository.ts';
import { createProject } from '../../src/server/domain/projects/project.service.ts';
import { now } from '../../src/server/lib/time.ts';
import type { Auth } from './harness.ts';

/** Every kind of caller the permission matrix checks. `bearer` is the owner, by API token. */
export const CALLERS = ['admin', 'owner', 'manager', 'task_runner', 'guest', 'non_member', 'anonymous', 'bearer'] as const;
export type Caller = (typeof CALLERS)[number];

/** Users of a world: one per role, plus `spare` (in no project) and `extra` (a guest member to manage). */
export const WORLD_USERS = ['admin', 'owner', 'manager', 'task_runner', 'guest', 'non_member', 'spare', 'extra'] as const;
export type WorldUserName = (typeof WORLD_USERS)[number];

export interface WorldUser {
  /** which of the world's users this is */
  key: WorldUserName;
  id: number;
  username: string;
  email: string;
}

/** A fresh project with a member of every role, sessions and API tokens for everyone. */
export interface World {
  projectId: number;
  users: Record<WorldUserName, WorldUser>;
  /** request headers per caller (anonymous: none; bearer: the owner's token) */
  auth: Record<Caller, Auth>;
  /** each user's full API token */
  tokens: Record<WorldUserName, string>;
  /** the password every world user has */
  password: string;
  /** the user a caller acts as (undefined for anonymous) */
  self: (caller: Caller) => WorldUser | undefined;
}

export const WORLD_PASSWORD = 'world-password-1';
let passwordHash: Promise<string> | undefined;
let counter = 0;

const MEMBER_ROLES: Partial<Record<WorldUserName, string>> = { manager: 'manager', task_runner: 'task_runner', guest: 'guest', extra: 'guest' };

/**
 * Builds a world straight in the database (no bcrypt per user, no sign-in round trips), so a
 * test can afford a fresh one per request, even for requests that delete what they touch.
 * @example const w = await buildWorld(s.deps.db); await s.call('GET', `/api/project/${w.projectId}`, undefined, w.auth.guest);
 */
export async function buildWorld(db: Db): Promise<World> {
  passwordHash ??= hashPassword(WORLD_PASSWORD);
  const hash = await passwordHash;
  const tag = `${process.pid}${++counter}`;
  const users = {} as Record<WorldUserName, WorldUser>;
  for (const name of WORLD_USERS) {
    const username = `${name.replace('_', '-')}-${tag}`;
    const row = await db.insertInto('user').values({
      created: now(), username, name: `${name} ${tag}`, email: `${username}@example.test`, password: hash,
      admin: name === 'admin' ? 1 : 0, external: 0, alert: 0,
    }).returningAll().executeTakeFirstOrThrow();
    users[name] = { key: name, id: row.id, username, email: row.email };
  }
  const project = await db.transaction().execute((tx) => createProject(tx, { name: `World ${tag}` }, users.owner.id));
  for (const [name, role] of Object.entries(MEMBER_ROLES)) {
    await db.insertInto('project_user').values({ project_id: project.id, user_id: users[name as WorldUserName].id, role, created: now() }).execute();
  }
  const tokens = {} as Record<WorldUserName, string>;
  const auth = { anonymous: {} } as Record<Caller, Auth>;
  for (const name of WORLD_USERS) {
    tokens[name] = (await createApiToken(db, users[name].id, { name: 'world' })).id;
    if ((CALLERS as readonly string[]).includes(name)) auth[name as Caller] = { cookie: `semaphore=${await startSession(db, users[name].id, 'test', 'vitest')}` };
  }
  auth.bearer = { authorization: `Bearer ${tokens.owner}` };
  const self = (caller: Caller) => (caller === 'anonymous' ? undefined : users[caller === 'bearer' ? 'owner' : caller]);
  return { projectId: project.id, users, auth, tokens, password: WORLD_PASSWORD, self };
}
