import type { Db } from '../../../src/server/db/database.ts';
import { startSession } from '../../../src/server/auth/sessions.ts';
import { now } from '../../../src/server/lib/time.ts';
import { createApiWorld, type ApiWorld } from '../../support/api-world.ts';
import type { Auth, TestServer } from '../../support/harness.ts';

/** Who the fuzzers call as. */
export const FUZZ_CALLERS = ['admin', 'manager', 'task_runner', 'guest', 'anonymous'] as const;
export type FuzzCaller = (typeof FUZZ_CALLERS)[number];

/** Names every plain object inherits. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString'];

/** Ids that are no ids: prototype names, beyond every id column, zero, negative, JSON words. */
export const HOSTILE_IDS = [...PROTOTYPE_NAMES, '99999999999999999999', '2147483648', '0', '-1', 'null', '%7B%7D'];

/** What the non-admin callers get of HOSTILE_IDS: a prototype name and an over-long id. */
export const FEW_HOSTILE_IDS = ['__proto__', '99999999999999999999'];

/** A project full of resources (createApiWorld) with a member of each fuzzed role. */
export interface FuzzWorld {
  world: ApiWorld;
  /** user id of each caller (anonymous: none) */
  userIds: Record<Exclude<FuzzCaller, 'anonymous'>, number>;
  /** a fresh session for the caller, so a request that signs out or changes a password does not spoil the next ones */
  auth: (caller: FuzzCaller) => Promise<Auth>;
}

export async function buildFuzzWorld(s: Pick<TestServer, 'deps' | 'call' | 'login'>): Promise<FuzzWorld> {
  const world = await createApiWorld(s as TestServer);
  const db: Db = s.deps.db;
  const admin = await db.selectFrom('user').select('id').where('admin', '=', 1).orderBy('id').executeTakeFirstOrThrow();
  const userIds = { admin: admin.id } as FuzzWorld['userIds'];
  for (const role of ['manager', 'task_runner', 'guest'] as const) {
    const row = await db.insertInto('user').values({
      created: now(), username: `fuzz-${role}`, name: `Fuzz ${role}`, email: `fuzz-${role}@example.test`, password: 'x', admin: 0, external: 0, alert: 0,
    }).returningAll().executeTakeFirstOrThrow();
    await db.insertInto('project_user').values({ project_id: world.ids.project_id, user_id: row.id, role, created: now() }).execute();
    userIds[role] = row.id;
  }
  const auth = async (caller: FuzzCaller): Promise<Auth> =>
    caller === 'anonymous' ? {} : { cookie: `semaphore=${await startSession(db, userIds[caller], '127.0.0.1', 'fuzz')}` };
  return { world, userIds, auth };
}
