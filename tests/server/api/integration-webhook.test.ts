import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { insertAdminProject, insertIntegration, listDeliveryRows, listTasks } from '../../support/trigger-fixtures.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

const SECRET = { login: 'hook-user', password: 'It5-a-s3cret' };
const PUSH = {
  ref: 'refs/heads/main',
  repository: { full_name: 'acme/app', id: 42.0 },
  head_commit: { id: 'c0ffee1234', message: 'Fix the flux capacitor' },
  commits: [{ id: 'c0ffee1234', author: { name: 'Ada' } }],
};
const hmac = (algorithm: string, body: string, secret = SECRET.password) => createHmac(algorithm, secret).update(body).digest('hex');
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

for (const dialect of DIALECTS) {
  describe(`incoming webhooks (${dialect})`, () => {
    let server: TestServer;
    let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
    beforeEach(async () => {
      server = await startTestServer(dialect, { SEMAPHORE_INTEGRATION_ALIAS: 'everything-global' });
      fixture = await insertAdminProject(server);
    });
    afterEach(async () => { await server.close(); });

    const hook = (options: Parameters<typeof insertIntegration>[3] = {}) => insertIntegration(server, fixture.project.id, fixture.template.id, options);
    const deliver = (alias: string, body: string, headers: Record<string, string> = {}, method = 'POST') =>
      server.api.request(`/api/integrations/${alias}`, { method, body: method === 'GET' ? undefined : body, headers: { 'content-type': 'application/json', ...headers } });
    const tasks = () => listTasks(server.deps.db, fixture.project.id);

    it('starts a task from a signed GitHub push, with the extracted values and the integration task_params', async () => {
      const { integration, alias } = await hook({
        auth_method: 'github', secret: SECRET, task_params: { debug: true },
        matchers: [{ name: 'repo', match_type: 'body', method: 'equals', key: 'repository.full_name', value: 'acme/app' },
          { name: 'event', match_type: 'header', method: 'equals', key: 'X-GitHub-Event', value: 'push' }],
        values: [
          { value_source: 'body', key: 'repository.full_name', variable: 'REPO' },
          { value_source: 'body', key: 'commits.[0].id', variable: 'COMMIT' },
          { value_source: 'body', key: 'repository.id', variable: 'REPO_ID' },
          { value_source: 'header', key: 'X-GitHub-Event', variable: 'EVENT' },
          { value_source: 'body', key: 'head_commit.message', variable: 'message', variable_type: 'task' },
          { value_source: 'body', key: 'head_commit.id', variable: 'commit_hash', variable_type: 'task' },
        ],
      });
      const body = JSON.stringify(PUSH);
      const res = await deliver(alias, body, { 'X-Hub-Signature-256': `sha256=${hmac('sha256', body)}`, 'X-GitHub-Event': 'push' });
      expect(res.status).toBe(204);

      const [task, ...more] = await tasks();
      expect(more).toHaveLength(0);
      expect(task).toMatchObject({ status: 'waiting', integration_id: integration.id, user_id: null, schedule_id: null, message: 'Fix the flux capacitor', commit_hash: 'c0ffee1234' });
      expect(JSON.parse(task!.environment)).toEqual({ REPO: 'acme/app', COMMIT: 'c0ffee1234', REPO_ID: '42', EVENT: 'push' });
      expect(JSON.parse(task!.params)).toEqual({ debug: true });
      const deliveries = await listDeliveryRows(server.deps.db, integration.id);
      expect(deliveries.map((d) => [d.matched, d.reason, d.task_id])).toEqual([[1, 'matched', task!.id]]);
      await settleAuditInbox(server.deps.db);
      const event = await server.deps.db.selectFrom('event').select(['description', 'integration_id']).where('object_type', '=', 'integration').executeTakeFirstOrThrow();
      expect(event).toEqual({ description: `Integration Hook started Task ID ${task!.id}`, integration_id: integration.id });
    });

    it('starts nothing for a wrong signature, a missing header or a failing matcher, and records why', async () => {
      const body = JSON.stringify(PUSH);
      const signed = { 'X-Hub-Signature-256': `sha256=${hmac('sha256', body)}` };
      const wrong = await hook({ name: 'wrong', auth_method: 'github', secret: SECRET });
      const missing = await hook({ name: 'missing', auth_method: 'github', secret: SECRET });
      const branch = await hook({ name: 'other-branch', auth_method: 'github', secret: SECRET,
        matchers: [{ name: 'branch', match_type: 'body', method: 'equals', key: 'ref', value: 'refs/heads/release' }] });

      expect((await deliver(wrong.alias, body, { 'X-Hub-Signature-256': `sha256=${hmac('sha256', body, 'not-the-secret')}` })).status).toBe(204);
      expect((await deliver(missing.alias, body)).status).toBe(204);
      expect((await deliver(branch.alias, body, signed)).status).toBe(204);

      expect(await tasks()).toHaveLength(0);
      const reasons = async (id: number) => (await listDeliveryRows(server.deps.db, id)).map((d) => [d.matched, d.reason, d.task_id]);
      expect(await reasons(wrong.integration.id)).toEqual([[0, 'signature mismatch', null]]);
      expect(await reasons(missing.integration.id)).toEqual([[0, 'missing header X-Hub-Signature-256', null]]);
      expect(await reasons(branch.integration.id)).toEqual([[0, 'matcher branch did not match', null]]);
    });

    const body = JSON.stringify(PUSH);
    const authCases: Array<{ method: string; auth_header?: string; pass: Record<string, string>; fail: Record<string, string>; reason: string }> = [
      { method: 'github', pass: { 'X-Hub-Signature-256': `sha256=${hmac('sha256', body)}` }, fail: { 'X-Hub-Signature-256': `sha256=${hmac('sha256', `${body} `)}` }, reason: 'signature mismatch' },
      { method: 'bitbucket', pass: { 'X-Hub-Signature': `sha256=${hmac('sha256', body)}` }, fail: { 'X-Hub-Signature': `sha256=${'0'.repeat(64)}` }, reason: 'signature mismatch' },
      { method: 'bitbucket', pass: { 'X-Hub-Signature': `sha1=${hmac('sha1', body)}` }, fail: {}, reason: 'missing header X-Hub-Signature' },
      { method: 'hmac', auth_header: 'X-Signature', pass: { 'X-Signature': hmac('sha256', body) }, fail: { 'X-Signature': `sha256=${hmac('sha256', body)}` }, reason: 'signature mismatch' },
      { method: 'token', auth_header: 'X-Token', pass: { 'X-Token': SECRET.password }, fail: { 'X-Token': `${SECRET.password}x` }, reason: 'token mismatch' },
      { method: 'basic', pass: { Authorization: basic(SECRET.login, SECRET.password) }, fail: { Authorization: basic(SECRET.login, 'guess') }, reason: 'credentials mismatch' },
    ];
    for (const c of authCases) {
      it(`authenticates ${c.method}${c.pass['X-Hub-Signature']?.startsWith('sha1') ? ' (sha1)' : ''}: accepts the right credentials, refuses others`, async () => {
        const good = await hook({ name: 'good', auth_method: c.method, auth_header: c.auth_header, secret: SECRET });
        const bad = await hook({ name: 'bad', auth_method: c.method, auth_header: c.auth_header, secret: SECRET });
        expect((await deliver(good.alias, body, c.pass)).status).toBe(204);
        expect((await deliver(bad.alias, body, c.fail)).status).toBe(204);
        expect((await tasks()).map((t) => t.integration_id)).toEqual([good.integration.id]);
        expect((await listDeliveryRows(server.deps.db, bad.integration.id)).map((d) => d.reason)).toEqual([c.reason]);
      });
    }

    it('accepts any caller for auth method none, and refuses a method whose key is missing', async () => {
      const open = await hook({ auth_method: 'none' });
      const keyless = await hook({ auth_method: 'token', auth_header: 'X-Token' });
      await deliver(open.alias, body);
      await deliver(keyless.alias, body, { 'X-Token': 'anything' });
      expect((await tasks()).map((t) => t.integration_id)).toEqual([open.integration.id]);
      expect((await listDeliveryRows(server.deps.db, keyless.integration.id))[0]!.reason).toBe('no secret key set for auth method token');
    });

    it('matches with equals, unequals and contains on headers, JSON paths and the raw body; no matchers means match', async () => {
      const all = await hook({ name: 'all', matchers: [
        { name: 'ua', match_type: 'header', method: 'contains', key: 'User-Agent', value: 'GitHub-Hookshot' },
        { name: 'not-tag', match_type: 'body', method: 'unequals', key: 'ref', value: 'refs/tags/v1' },
        { name: 'raw', match_type: 'body', method: 'contains', body_data_type: 'string', key: '-', value: 'flux capacitor' },
        { name: 'id', match_type: 'body', method: 'equals', key: 'repository.id', value: '42' },
        { name: 'author', match_type: 'body', method: 'equals', key: 'commits[0].author.name', value: 'Ada' },
      ] });
      const none = await hook({ name: 'none' });
      const absent = await hook({ name: 'absent', matchers: [{ name: 'missing-path', match_type: 'body', method: 'contains', key: 'repository.owner.login', value: '' }] });
      for (const alias of [all.alias, none.alias, absent.alias]) await deliver(alias, body, { 'User-Agent': 'GitHub-Hookshot/abc' });
      expect((await tasks()).map((t) => t.integration_id)).toEqual([all.integration.id, none.integration.id]);
      expect((await listDeliveryRows(server.deps.db, absent.integration.id))[0]!.reason).toBe('matcher missing-path did not match');
    });

    it('extracts the whole body as text and fills task fields from task-type values', async () => {
      await server.deps.db.updateTable('template').set({ allow_override_branch_in_task: 1 }).where('id', '=', fixture.template.id).execute();
      const { alias } = await hook({ values: [
        { value_source: 'body', body_data_type: 'string', variable: 'PAYLOAD' },
        { value_source: 'body', key: 'ref', variable: 'git_branch', variable_type: 'task' },
        { value_source: 'body', key: 'head_commit.message', variable: 'message', variable_type: 'task' },
        { value_source: 'header', key: 'X-Commit', variable: 'commit_hash', variable_type: 'task' },
        { value_source: 'body', key: 'no.such.path', variable: 'ABSENT' },
      ] });
      expect((await deliver(alias, body, { 'X-Commit': 'abc1234' })).status).toBe(204);
      const [task] = await tasks();
      expect(JSON.parse(task!.environment)).toEqual({ PAYLOAD: body });
      expect(task).toMatchObject({ git_branch: 'refs/heads/main', message: 'Fix the flux capacitor', commit_hash: 'abc1234' });
    });

    it('resolves a project alias to the searchable integrations of the project and the global alias to all of them', async () => {
      const searchable = await hook({ name: 'searchable', searchable: true, alias: null });
      await hook({ name: 'hidden', searchable: false, alias: null });
      const other = await insertAdminProject(server);
      const elsewhere = await insertIntegration(server, other.project.id, other.template.id, { name: 'elsewhere', searchable: true, alias: null });
      await server.deps.db.insertInto('integration_alias').values({ alias: 'project-alias-1', project_id: fixture.project.id, integration_id: null }).execute();

      expect((await deliver('project-alias-1', body)).status).toBe(204);
      expect((await tasks()).map((t) => t.integration_id)).toEqual([searchable.integration.id]);
      expect((await deliver('everything-global', body)).status).toBe(204);
      const all = await server.deps.db.selectFrom('task').select('integration_id').orderBy('id').execute();
      expect(all.map((t) => t.integration_id)).toEqual([searchable.integration.id, searchable.integration.id, elsewhere.integration.id]);
    });

    it('never crashes on malformed JSON, a 10 MB body or an unknown alias, and starts nothing', async () => {
      const json = await hook({ name: 'json', matchers: [{ name: 'ref', match_type: 'body', method: 'unequals', key: 'ref', value: 'x' }] });
      expect((await deliver(json.alias, '{"ref": "refs/heads/main",,')).status).toBe(204);
      expect((await listDeliveryRows(server.deps.db, json.integration.id))[0]!.reason).toBe('matcher ref did not match (body is not valid JSON)');

      // 10 MB is refused by the API-wide body limit before the webhook reads it; 2 MB by the webhook's own limit
      const huge = `{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
      expect((await deliver(json.alias, huge)).status).toBe(413);
      expect((await deliver(json.alias, huge, { 'content-length': String(huge.length) })).status).toBe(413);
      const large = `{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`;
      expect((await deliver(json.alias, large)).status).toBe(413);
      expect((await deliver(json.alias, large, { 'content-length': String(large.length) })).status).toBe(413);
      expect((await listDeliveryRows(server.deps.db, json.integration.id)).map((d) => d.reason).slice(1))
        .toEqual(['request body larger than 1048576 bytes', 'request body larger than 1048576 bytes']);

      expect((await deliver('no-such-alias', body)).status).toBe(404);
      expect((await deliver('no-such-alias', body, {}, 'GET')).status).toBe(405);
      expect(await tasks()).toHaveLength(0);
      expect((await server.call('GET', '/api/ping')).status).toBe(200);
    });

    it('takes only POST deliveries: OPTIONS, HEAD and GET start nothing and record nothing', async () => {
      const open = await hook({});
      const preflight = await deliver(open.alias, '', {}, 'OPTIONS');
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('allow')).toBe('POST, OPTIONS');
      expect((await server.api.request(`/api/integrations/${open.alias}`, { method: 'HEAD' })).status).toBe(405);
      expect((await deliver(open.alias, '', {}, 'GET')).status).toBe(405);
      expect(await tasks()).toHaveLength(0);
      expect(await listDeliveryRows(server.deps.db, open.integration.id)).toEqual([]);
      expect((await deliver(open.alias, '{}')).status).toBe(204);
      expect(await tasks()).toHaveLength(1);
    });
  });
}
