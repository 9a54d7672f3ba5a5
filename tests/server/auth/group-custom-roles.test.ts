import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld } from '../../support/world.ts';
import { applyGroupMappings } from '../../../src/server/auth/group-roles.ts';
import { loadConfig } from '../../../src/server/config/config.ts';
import { now } from '../../../src/server/lib/time.ts';

// Directory groups mapped to custom roles (issue 52): a mapping names a project's role by slug;
// of several matching mappings the role acting with the most bits wins; a slug the project lacks
// grants nothing. Config keeps `role` to Semaphore's four and refuses both keys together.

describe('group mapping config with custom roles', () => {
  it('reads custom_role by slug and refuses it beside role or without project_id', () => {
    const config = loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":3,"custom_role":"operator"}]' });
    expect(config.group_mappings).toEqual([{ group: 'ops', project_id: 3, custom_role: 'operator' }]);
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":3,"role":"guest","custom_role":"operator"}]' })).toThrow(/role or custom_role, not both/);
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","custom_role":"operator"}]' })).toThrow(/project_id and role go together/);
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":3,"custom_role":"Not A Slug"}]' })).toThrow(/custom_role/);
  });
});

for (const dialect of DIALECTS) {
  describe(`directory groups → custom roles (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('gives the mapped custom role, prefers the role with more rights, and ignores a slug the project lacks', async () => {
      const w = await buildWorld(s.deps.db);
      const db = s.deps.db;
      await db.insertInto('project_role').values({ project_id: w.projectId, slug: 'operator', name: 'Operator', permissions: 1 | 16 | 32, created: now() }).execute();
      const user = await db.selectFrom('user').selectAll().where('id', '=', w.users.spare.id).executeTakeFirstOrThrow();
      const roleOf = async () => (await db.selectFrom('project_user').select('role').where('project_id', '=', w.projectId).where('user_id', '=', user.id).executeTakeFirst())?.role;
      const mappings = [
        { group: 'ops', project_id: w.projectId, custom_role: 'operator' },
        { group: 'viewers', project_id: w.projectId, role: 'guest' as const },
        { group: 'runners', project_id: w.projectId, role: 'task_runner' as const },
        { group: 'ghosts', project_id: w.projectId, custom_role: 'missing' },
      ];
      await db.transaction().execute((tx) => applyGroupMappings(tx, user, ['cn=ops,ou=groups,dc=example', 'viewers'], mappings));
      expect(await roleOf()).toBe('operator');
      // task_runner acts with 3 bits, the Operator with 4: the Operator stays
      await db.transaction().execute((tx) => applyGroupMappings(tx, user, ['ops', 'runners'], mappings));
      expect(await roleOf()).toBe('operator');
      await db.transaction().execute((tx) => applyGroupMappings(tx, user, ['ghosts'], mappings));
      expect(await roleOf()).toBeUndefined();
      await db.transaction().execute((tx) => applyGroupMappings(tx, user, ['ghosts', 'viewers'], mappings));
      expect(await roleOf()).toBe('guest');
    });
  });
}
