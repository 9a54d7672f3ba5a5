import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { countResourceRows, createTestProject } from '../../support/project-members.ts';
import { expectNoSecrets, recordResponses, storedSecretForms } from '../../support/secrets.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

const VAR_SECRET = 'var-secret-3e9d1f';
const ENV_SECRET = 'env-secret-b7c2a4';
const NEW_SECRET = 'rotated-secret-90aa51';
const GROUP_PASSWORD = 'group-password-44ee01';

for (const dialect of DIALECTS) {
  describe(`variable groups (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let projectId: number;
    const { call, responses } = recordResponses(() => s, () => admin);
    const secretRows = (environmentId: number) => s.deps.db.selectFrom('access_key').selectAll()
      .where('environment_id', '=', environmentId).orderBy('id').execute();

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base, projectId } = await createTestProject(s));
    });
    afterAll(async () => { await s.close(); });

    it('creates a group with secrets (201), returns them without values and stores them sealed', async () => {
      const res = await call('POST', `${base}/environment`, {
        name: 'Prod', project_id: projectId, password: GROUP_PASSWORD, json: '{"region":"eu"}', env: '{"MODE":"prod"}',
        secrets: [
          { operation: 'create', type: 'var', name: 'db_password', secret: VAR_SECRET },
          { operation: 'create', type: 'env', name: 'API_TOKEN', secret: ENV_SECRET },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Prod', project_id: projectId, password: '', json: '{"region":"eu"}', env: '{"MODE":"prod"}',
        secrets: [{ type: 'var', name: 'db_password', secret: '' }, { type: 'env', name: 'API_TOKEN', secret: '' }],
      });
      const rows = await secretRows(res.body.id);
      expect(rows.map((r) => [r.name, r.type, r.owner])).toEqual([['var.db_password', 'string', 'environment'], ['env.API_TOKEN', 'string', 'environment']]);
      expect(rows.map((r) => s.deps.secrets.open(r.secret!))).toEqual([VAR_SECRET, ENV_SECRET]);
      const group = await s.deps.db.selectFrom('environment').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(group.password).not.toBe(GROUP_PASSWORD);
      expect(s.deps.secrets.open(group.password!)).toBe(GROUP_PASSWORD);
    });

    it('updates, deletes and adds secrets in one PUT; an empty value keeps the stored one', async () => {
      const prod = (await call('GET', `${base}/environment?sort=name&order=asc`)).body.find((e: { name: string }) => e.name === 'Prod');
      const [dbPassword, apiToken] = prod.secrets;
      const res = await call('PUT', `${base}/environment/${prod.id}`, {
        id: prod.id, name: 'Production', json: '{}', env: null, password: '',
        secrets: [
          { operation: 'update', id: dbPassword.id, type: 'var', name: 'db_pass', secret: '' },
          { operation: 'update', id: apiToken.id, type: 'env', name: 'API_TOKEN', secret: NEW_SECRET },
          { operation: 'create', type: 'env', name: 'EXTRA', secret: 'x' },
        ],
      });
      expect(res.status).toBe(204);
      let rows = await secretRows(prod.id);
      expect(rows.map((r) => [r.name, s.deps.secrets.open(r.secret!)])).toEqual([
        ['var.db_pass', VAR_SECRET], ['env.API_TOKEN', NEW_SECRET], ['env.EXTRA', 'x'],
      ]);
      const group = await s.deps.db.selectFrom('environment').selectAll().where('id', '=', prod.id).executeTakeFirstOrThrow();
      expect(s.deps.secrets.open(group.password!)).toBe(GROUP_PASSWORD);
      expect(group).toMatchObject({ name: 'Production', json: '{}', env: null });
      await call('PUT', `${base}/environment/${prod.id}`, { name: 'Production', json: '{}', secrets: [{ operation: 'delete', id: rows[2]!.id }] });
      rows = await secretRows(prod.id);
      expect(rows.map((r) => r.name)).toEqual(['var.db_pass', 'env.API_TOKEN']);
    });

    it('accepts json and env given as objects and stores them as text', async () => {
      const res = await call('POST', `${base}/environment`, { name: 'Objects', json: { a: 1 }, env: { B: '2' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ json: '{"a":1}', env: '{"B":"2"}' });
    });

    it('answers each validation rule with its message and writes nothing', async () => {
      const prod = (await call('GET', `${base}/environment`)).body.find((e: { name: string }) => e.name === 'Production');
      const other = await call('POST', `${base}/environment`, { name: 'Other', json: '{}', secrets: [{ type: 'var', name: 'theirs', secret: 's' }] });
      const before = await countResourceRows(s);
      const cases: [string, string, unknown, string][] = [
        ['POST', '', { json: '{}' }, 'name: '],
        ['POST', '', { name: '' }, 'name: required'],
        ['POST', '', { name: 'E', json: '{bad' }, 'Extra variables must be valid JSON'],
        ['POST', '', { name: 'E', json: '[1,2]' }, 'Extra variables must be valid JSON'],
        ['POST', '', { name: 'E', json: '"text"' }, 'Extra variables must be valid JSON'],
        ['POST', '', { name: 'E', env: '{bad' }, 'Environment variables must be a valid JSON object'],
        ['POST', '', { name: 'E', env: '[]' }, 'Environment variables must be a valid JSON object'],
        ['POST', '', { name: 'E', json: 5 }, 'json: '],
        ['POST', '', { name: 'E', secrets: {} }, 'secrets: '],
        ['POST', '', { name: 'E', secrets: [{ type: 'var', secret: 's' }] }, 'secrets.0.name: required'],
        ['POST', '', { name: 'E', secrets: [{ name: 'A', secret: 's' }] }, 'secrets.0.type: required; use var or env'],
        ['POST', '', { name: 'E', secrets: [{ name: 'A B', type: 'env' }] }, 'secrets.0.name: must not contain spaces'],
        ['POST', '', { name: 'E', secrets: [{ name: 'A', type: 'file' }] }, 'secrets.0.type: '],
        ['POST', '', { name: 'E', secrets: [{ name: 'A', type: 'env' }, { name: 'A', type: 'env' }] }, 'secrets: env secret A is given twice'],
        ['POST', '', { name: 'E', secrets: [{ operation: 'delete', id: prod.secrets[0].id }] }, 'secrets.0.id: no such secret in this variable group'],
        ['POST', '', { name: 'E', project_id: projectId + 1 }, 'Project ID in body and URL must be the same'],
        ['POST', '', { name: 'E', json: `{"a":"${'x'.repeat(1024 * 1024)}"}` }, 'json: '],
        ['PUT', `/${prod.id}`, { name: 'P', secrets: [{ operation: 'update', id: other.body.secrets[0].id, secret: 'stolen' }] }, 'secrets.0.id: no such secret in this variable group'],
        ['PUT', `/${prod.id}`, { name: 'P', secrets: [{ operation: 'delete' }] }, 'secrets.0.id: no such secret in this variable group'],
        ['PUT', `/${prod.id}`, { name: 'P', secrets: [{ operation: 'create', type: 'env', name: 'API_TOKEN', secret: 'dup' }] }, 'secrets: env secret API_TOKEN is given twice'],
        ['PUT', `/${prod.id}`, { name: 'P', json: 'nope' }, 'Extra variables must be valid JSON'],
      ];
      for (const [method, suffix, body, message] of cases) {
        const res = await call(method, `${base}/environment${suffix}`, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.error.startsWith(message), `${res.body.error} vs ${message}`).toBe(true);
      }
      expect((await call('POST', `${base}/environment`, '{"name": "x",')).status).toBe(400);
      expect(await countResourceRows(s)).toEqual(before);
      expect((await call('GET', `${base}/environment/${prod.id}`)).body.name).toBe('Production');
    });

    it('deletes a group with its secrets and records events', async () => {
      const created = await call('POST', `${base}/environment`, { name: 'Gone', json: '{}', secrets: [{ type: 'env', name: 'X', secret: 'gone-secret' }] });
      const id = created.body.id;
      await call('PUT', `${base}/environment/${id}`, { name: 'Gone', json: '{}' });
      expect((await call('DELETE', `${base}/environment/${id}`)).status).toBe(204);
      expect((await call('GET', `${base}/environment/${id}`)).status).toBe(404);
      expect(await secretRows(id)).toEqual([]);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select('description').where('object_type', '=', 'environment').where('object_id', '=', id).orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual(['Environment Gone created', 'Environment Gone updated', 'Environment Gone deleted']);
    });

    it('never shows a secret value or the group password in any response', async () => {
      const stored = await storedSecretForms(s.deps.db);
      expect(stored.length).toBeGreaterThan(0);
      expectNoSecrets(responses, [VAR_SECRET, ENV_SECRET, NEW_SECRET, GROUP_PASSWORD, 'gone-secret'], stored);
    });
  });
}
