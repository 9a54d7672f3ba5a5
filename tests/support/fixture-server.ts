import { ADMIN, startTestServer, type Auth, type TestServer } from './harness.ts';
import { insertProjectWithTemplate } from './fixtures.ts';
import type { DialectName } from './dialects.ts';

export type FixtureProject = Awaited<ReturnType<typeof insertProjectWithTemplate>>;

/**
 * A test server with the admin signed in and a project with a template owned by the admin.
 * @example ({ s, admin, f } = await startWithFixtureProject(dialect));
 */
export async function startWithFixtureProject(
  dialect: DialectName,
  options: { env?: Record<string, string>; fixture?: Omit<Parameters<typeof insertProjectWithTemplate>[1], 'ownerId'> } = {},
): Promise<{ s: TestServer; admin: Auth; f: FixtureProject }> {
  const s = await startTestServer(dialect, options.env);
  const admin = await s.login(ADMIN.login, ADMIN.password);
  const adminRow = await s.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  const f = await insertProjectWithTemplate(s.deps.db, { ownerId: adminRow.id, ...options.fixture });
  return { s, admin, f };
}
