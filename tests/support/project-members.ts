import { hashPassword } from '../../src/server/access/password.ts';
import { insertUser } from '../../src/server/domain/users/user.repository.ts';
import { now } from '../../src/server/lib/time.ts';
import { ADMIN, type Auth, type TestServer } from './harness.ts';

let counter = 0;

/**
 * A project created through the API by the env admin, plus its id and the admin's auth.
 * @example const { projectId, admin } = await createTestProject(s);
 */
export async function createTestProject(s: TestServer, name = 'Resources'): Promise<{ projectId: number; admin: Auth; base: string }> {
  const admin = await s.login(ADMIN.login, ADMIN.password);
  const res = await s.call('POST', '/api/projects', { name }, admin);
  if (res.status !== 201) throw new Error(`project create failed: ${res.status} ${res.text}`);
  return { projectId: res.body.id, admin, base: `/api/project/${res.body.id}` };
}

/**
 * A fresh non-admin user signed in; with `role`, a member of the project in that role.
 * @example const guest = await signInMember(s, projectId, 'guest');
 */
export async function signInMember(s: TestServer, projectId: number, role?: string): Promise<Auth> {
  const username = `user${++counter}_${Date.now()}`;
  const password = 'member-password-1';
  const user = await insertUser(s.deps.db, {
    created: now(), username, name: username, email: `${username}@example.test`, password: await hashPassword(password),
    admin: 0, external: 0, alert: 0,
  });
  if (role) await s.deps.db.insertInto('project_user').values({ project_id: projectId, user_id: user.id, role, created: now() }).execute();
  return s.login(username, password);
}

/** Row counts of the resource tables, to show a refused request changed nothing. */
export async function countResourceRows(s: TestServer): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['access_key', 'repository', 'inventory', 'environment', 'event'] as const) {
    const row = await s.deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}
