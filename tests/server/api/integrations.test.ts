import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { countProjectRows, insertKey } from '../../support/project-rows.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`integrations (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    let base: string;
    let secretKeyId: number;
    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect, { env: { SEMAPHORE_WEB_ROOT: 'https://ci.example.test' } }));
      base = `/api/project/${f.project.id}/integrations`;
      secretKeyId = (await insertKey(s.deps.db, f.project.id, 'Hook secret', 'login_password')).id;
    });
    afterAll(async () => { await s.close(); });

    const integration = (patch: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'Push', template_id: f.template.id, auth_method: 'none', ...patch });

    it('creates (201), reads, updates (204) and deletes (204) an integration, logging events', async () => {
      const created = await s.call('POST', base, integration({ auth_method: 'github', auth_secret_id: secretKeyId, searchable: true, task_params: { message: 'from hook' } }), admin);
      expect(created.status).toBe(201);
      const me = (await s.call('GET', '/api/user', undefined, admin)).body;
      expect(created.body).toEqual({
        id: created.body.id, name: 'Push', project_id: f.project.id, template_id: f.template.id, auth_method: 'github',
        auth_secret_id: secretKeyId, auth_header: '', searchable: true, task_params: { message: 'from hook' }, once_within: null,
        owner_id: me.id,
      });
      const id = created.body.id;
      expect((await s.call('GET', `${base}/${id}`, undefined, admin)).body).toEqual(created.body);
      expect((await s.call('GET', base, undefined, admin)).body).toEqual([created.body]);
      expect((await s.call('PUT', `${base}/${id}`, { ...created.body, name: 'Push 2', auth_method: 'token', auth_header: 'X-Token' }, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}`, undefined, admin)).body).toMatchObject({ name: 'Push 2', auth_method: 'token', auth_header: 'X-Token' });
      expect((await s.call('DELETE', `${base}/${id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}`, undefined, admin)).status).toBe(404);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select(['description', 'integration_id']).where('object_type', '=', 'integration').orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual(['Integration Push created', 'Integration Push 2 updated', 'Integration Push 2 deleted']);
      expect(events.every((e) => e.integration_id === id)).toBe(true);
    });

    const invalid: [string, Record<string, unknown>, string | RegExp][] = [
      ['a missing name', { name: ' ' }, 'Name is required'],
      ['a missing template', { template_id: undefined }, 'Template is required'],
      ['a template of another project', { template_id: 999999 }, 'template_id: no template 999999 in this project'],
      ['an unknown auth method', { auth_method: 'magic' }, /^auth_method: /],
      ['github auth without a key', { auth_method: 'github' }, 'auth_secret_id: a key is required for github authentication'],
      ['token auth without a header', { auth_method: 'token', auth_secret_id: -1 }, 'auth_header: a header name is required for token authentication'],
      ['a key of another project', { auth_method: 'hmac', auth_header: 'X-Sig', auth_secret_id: 999999 }, 'auth_secret_id: no access key 999999 in this project'],
    ];
    for (const [what, patch, message] of invalid) {
      it(`refuses ${what} with 400 and writes nothing`, async () => {
        const body = integration(patch);
        if (body.auth_secret_id === -1) body.auth_secret_id = secretKeyId;
        const before = await countProjectRows(s.deps.db);
        const res = await s.call('POST', base, body, admin);
        expect(res.status).toBe(400);
        if (typeof message === 'string') expect(res.body.error).toBe(message);
        else expect(res.body.error).toMatch(message);
        expect(await countProjectRows(s.deps.db)).toEqual(before);
      });
    }

    it('manages matchers: POST answers 200 with the matcher, PUT and DELETE 204', async () => {
      const id = (await s.call('POST', base, integration(), admin)).body.id;
      const m = await s.call('POST', `${base}/${id}/matchers`, { name: 'main', match_type: 'body', body_data_type: 'json', key: 'ref', method: 'equals', value: 'refs/heads/main' }, admin);
      expect(m.status).toBe(200);
      expect(m.body).toMatchObject({ integration_id: id, name: 'main', match_type: 'body', method: 'equals', key: 'ref' });
      expect((await s.call('PUT', `${base}/${id}/matchers/${m.body.id}`, { ...m.body, method: 'contains', value: 'main' }, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}/matchers`, undefined, admin)).body).toMatchObject([{ method: 'contains', value: 'main' }]);
      expect((await s.call('GET', `${base}/${id}/refs`, undefined, admin)).body.matchers).toEqual([{ id: m.body.id, name: 'main' }]);
      expect((await s.call('DELETE', `${base}/${id}/matchers/${m.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}/matchers`, undefined, admin)).body).toEqual([]);
      await settleAuditInbox(s.deps.db);
      const types = await s.deps.db.selectFrom('event').select('description').where('object_type', '=', 'integrationmatcher').execute();
      expect(types.map((e) => e.description)).toEqual(['Integration matcher main created', 'Integration matcher main updated', 'Integration matcher main deleted']);
    });

    const matcherErrors: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'Name is required'],
      [{ match_type: undefined }, 'Match source is required'],
      [{ body_data_type: undefined }, 'Body Data Format is required'],
      [{ key: '' }, 'Key is required'],
      [{ method: undefined }, 'Comparison Method is required'],
      [{ value: '' }, 'Value is required'],
    ];
    for (const [patch, message] of matcherErrors) {
      it(`refuses a matcher with "${message}"`, async () => {
        const id = (await s.call('POST', base, integration({ name: `m ${message}` }), admin)).body.id;
        const res = await s.call('POST', `${base}/${id}/matchers`, { name: 'm', match_type: 'body', body_data_type: 'json', key: 'k', method: 'equals', value: 'v', ...patch }, admin);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: message });
      });
    }

    it('needs no key for a whole-body string matcher and no body format for a header matcher', async () => {
      const id = (await s.call('POST', base, integration({ name: 'loose' }), admin)).body.id;
      expect((await s.call('POST', `${base}/${id}/matchers`, { name: 'b', match_type: 'body', body_data_type: 'string', method: 'contains', value: 'deploy' }, admin)).status).toBe(200);
      expect((await s.call('POST', `${base}/${id}/matchers`, { name: 'h', match_type: 'header', key: 'X-Event', method: 'equals', value: 'push' }, admin)).status).toBe(200);
    });

    it('manages extracted values: POST 201, PUT and DELETE 204, variable_type defaults to environment', async () => {
      const id = (await s.call('POST', base, integration({ name: 'values' }), admin)).body.id;
      const v = await s.call('POST', `${base}/${id}/values`, { name: 'sha', value_source: 'body', body_data_type: 'json', key: 'after', variable: 'SHA' }, admin);
      expect(v.status).toBe(201);
      expect(v.body).toMatchObject({ integration_id: id, variable: 'SHA', variable_type: 'environment' });
      expect((await s.call('PUT', `${base}/${id}/values/${v.body.id}`, { ...v.body, variable_type: 'task' }, admin)).status).toBe(400);
      expect((await s.call('PUT', `${base}/${id}/values/${v.body.id}`, { ...v.body, variable: 'commit_hash', variable_type: 'task' }, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}/values`, undefined, admin)).body).toMatchObject([{ variable: 'commit_hash', variable_type: 'task' }]);
      expect((await s.call('DELETE', `${base}/${id}/values/${v.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('DELETE', `${base}/${id}/values/${v.body.id}`, undefined, admin)).status).toBe(404);
    });

    const valueErrors: [Record<string, unknown>, string][] = [
      [{ value_source: undefined }, 'Value Source is required'],
      [{ body_data_type: '' }, 'Body Data Type is required'],
      [{ key: undefined }, 'Key is required'],
      [{ variable_type: '' }, 'Variable Type is required'],
      [{ variable: ' ' }, 'Variable is required'],
    ];
    for (const [patch, message] of valueErrors) {
      it(`refuses an extracted value with "${message}"`, async () => {
        const id = (await s.call('POST', base, integration({ name: `v ${message}` }), admin)).body.id;
        const before = await countProjectRows(s.deps.db);
        const res = await s.call('POST', `${base}/${id}/values`, { name: 'x', value_source: 'body', body_data_type: 'json', key: 'k', variable: 'V', variable_type: 'environment', ...patch }, admin);
        expect(res.body).toEqual({ error: message });
        expect(await countProjectRows(s.deps.db)).toEqual(before);
      });
    }

    it('makes project and integration aliases of 16 [a-z0-9] characters with a public url', async () => {
      const id = (await s.call('POST', base, integration({ name: 'aliased' }), admin)).body.id;
      const project = await s.call('POST', `${base}/aliases`, undefined, admin);
      expect(project.status).toBe(200);
      expect(project.body.url).toMatch(/^https:\/\/ci\.example\.test\/api\/integrations\/[a-z0-9]{16}$/);
      const own = await s.call('POST', `${base}/${id}/aliases`, undefined, admin);
      expect(own.body.url).toMatch(/\/api\/integrations\/[a-z0-9]{16}$/);
      expect((await s.call('GET', `${base}/aliases`, undefined, admin)).body).toEqual([project.body]);
      expect((await s.call('GET', `${base}/${id}/aliases`, undefined, admin)).body).toEqual([own.body]);
      const row = await s.deps.db.selectFrom('integration_alias').selectAll().where('id', '=', own.body.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ project_id: f.project.id, integration_id: id });
      // an integration's alias cannot be deleted through the project-level route, and vice versa:
      // that DELETE changes nothing (a no-op 204, as Semaphore answers an alias that is not there)
      expect((await s.call('DELETE', `${base}/aliases/${own.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('DELETE', `${base}/${id}/aliases/${project.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/${id}/aliases`, undefined, admin)).body).toEqual([own.body]);
      expect((await s.call('GET', `${base}/aliases`, undefined, admin)).body).toEqual([project.body]);
      expect((await s.call('DELETE', `${base}/${id}/aliases/${own.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('DELETE', `${base}/aliases/${project.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${base}/aliases`, undefined, admin)).body).toEqual([]);
      expect((await s.call('GET', `${base}/${id}/aliases`, undefined, admin)).body).toEqual([]);
    });

    it('blocks deleting a template that an integration starts, and reports it in refs', async () => {
      const id = (await s.call('POST', base, integration({ name: 'keeps template' }), admin)).body.id;
      const refs = await s.call('GET', `/api/project/${f.project.id}/templates/${f.template.id}/refs`, undefined, admin);
      expect(refs.body.integrations).toContainEqual({ id, name: 'keeps template' });
      const del = await s.call('DELETE', `/api/project/${f.project.id}/templates/${f.template.id}`, undefined, admin);
      expect(del.status).toBe(400);
      expect(del.body.inUse).toBe(true);
    });
  });
}
