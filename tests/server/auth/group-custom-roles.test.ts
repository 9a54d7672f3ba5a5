import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld } from '../../support/world.ts';
import { applyGroupMappings } from '../../../src/server/auth/group-roles.ts';
import { loadConfig } from '../../../src/server/config/config.ts';
import { now } from '../../../src/server/lib/time.ts';
import { insertProjectResources } from '../../support/resource-rows.ts';

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

  it('reads template and view grants of a mapping, and refuses them without a project or naming both or neither', () => {
    const config = loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":3,"role":"guest","grants":[{"template_id":4,"run":true},{"view_id":2}]}]' });
    expect(config.group_mappings).toEqual([{ group: 'ops', project_id: 3, role: 'guest', grants: [{ template_id: 4, run: true }, { view_id: 2 }] }]);
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","admin":true,"grants":[{"view_id":2}]}]' })).toThrow(/grants need project_id/);
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":3,"role":"guest","grants":[{"view_id":2,"template_id":4}]}]' })).toThrow(/template_id or view_id/);
    expect(() => loadConfig({ SEMAPHORE_GROUP_MAPPINGS: '[{"group":"ops","project_id":3,"role":"guest","grants":[{"run":true}]}]' })).toThrow(/template_id or view_id/);
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

    it('gives the template and view grants of the groups the user is in, and takes them back when the groups go; grants made by hand stay', async () => {
      const w = await buildWorld(s.deps.db);
      const db = s.deps.db;
      const ids = await insertProjectResources(db, w.projectId);
      const other = await buildWorld(db);
      const elsewhere = await insertProjectResources(db, other.projectId);
      const user = await db.selectFrom('user').selectAll().where('id', '=', w.users.spare.id).executeTakeFirstOrThrow();
      const auth = { authorization: `Bearer ${w.tokens.spare}` };
      const sees = async () => (await s.call('GET', `/api/project/${w.projectId}/templates/${ids.template}`, undefined, auth)).status;
      // the template is granted by hand to the manager only: a plain guest does not see it
      await s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/grants`, { grants: [{ role: 'manager' }] }, w.auth.owner);
      const mappings = [
        { group: 'ops', project_id: w.projectId, role: 'guest' as const, grants: [{ template_id: ids.template, run: true }, { template_id: elsewhere.template }] },
        { group: 'viewers', project_id: w.projectId, role: 'guest' as const, grants: [{ view_id: ids.view }] },
      ];
      const sync = (groups: string[]) => db.transaction().execute((tx) => applyGroupMappings(tx, user, groups, mappings));
      await sync(['ops']);
      expect(await sees()).toBe(200);
      const directory = () => db.selectFrom('template_grant').select(['template_id', 'user_id', 'can_run']).where('directory', '=', 1).where('user_id', '=', user.id).execute();
      expect(await directory()).toEqual([{ template_id: ids.template, user_id: user.id, can_run: 1 }]);
      // the API's list shows the grants made by hand; a PUT there leaves the directory's alone
      expect((await s.call('GET', `/api/project/${w.projectId}/templates/${ids.template}/grants`, undefined, w.auth.owner)).body).toEqual({ grants: [{ role: 'manager', user_id: null, run: false }] });
      await s.call('PUT', `/api/project/${w.projectId}/templates/${ids.template}/grants`, { grants: [{ role: 'manager' }, { role: 'task_runner' }] }, w.auth.owner);
      expect(await sees()).toBe(200);
      await sync(['viewers']);
      expect(await directory()).toEqual([]);
      expect(await sees()).toBe(200);
      expect(await db.selectFrom('view_grant').select(['view_id', 'can_run']).where('user_id', '=', user.id).execute()).toEqual([{ view_id: ids.view, can_run: 0 }]);
      await sync(['nobody']);
      expect(await sees()).toBe(404);
      await sync(['viewers']);
      await sync([]);
      expect(await db.selectFrom('view_grant').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
      expect((await s.call('GET', `/api/project/${w.projectId}/templates/${ids.template}/grants`, undefined, w.auth.owner)).body.grants).toHaveLength(2);
    });
  });
}
