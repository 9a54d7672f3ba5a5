import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';
import { createApiWorld, type ApiWorld } from '../support/api-world.ts';
import { OTHER_METHODS_KEY } from '../../src/server/openapi/openapi-document.ts';

interface Operation { requestBody?: unknown }
interface Call { method: string; template: string; needsBody: boolean }

/** Every operation of the served document, with whether it documents a request body. */
function operationsOf(doc: { paths: Record<string, Record<string, Operation & Record<string, Operation>>> }): Call[] {
  return Object.entries(doc.paths).flatMap(([template, item]) => Object.entries(item).flatMap(([key, op]) => (key === OTHER_METHODS_KEY
    ? Object.entries(op as Record<string, Operation>).map(([method, other]) => ({ method: method.toUpperCase(), template, needsBody: Boolean(other.requestBody) }))
    : ['get', 'post', 'put', 'delete', 'patch'].includes(key) ? [{ method: key.toUpperCase(), template, needsBody: Boolean(op.requestBody) }] : [])));
}

/**
 * The order a walk can take without pulling the ground from under itself: reads and writes
 * first, then deletes deepest path first (a project's parts before the project), sign-out last.
 */
function walkOrder(a: Call, b: Call): number {
  const rank = (c: Call) => (c.template === '/api/auth/logout' ? 2 : c.method === 'DELETE' ? 1 : 0);
  return rank(a) - rank(b) || (rank(a) === 1 ? b.template.split('/').length - a.template.split('/').length : 0);
}

/** A path parameter's value in the world (a spare resource for deletes); 1 where the world has none. */
function fillPath(call: Call, w: ApiWorld): string {
  const values: Record<string, string | number> = {
    ...w.ids, value_id: w.ids.extractvalue_id, app_id: 'ansible', token_id: w.ids.api_token_id, type: 'ldap', provider: 'default',
    alias_id: call.template.includes('{integration_id}') ? w.ids.integration_alias_id : w.ids.project_alias_id,
    ...(call.template.startsWith('/api/runners/') ? { runner_id: w.ids.global_runner_id } : {}),
    ...(call.template.startsWith('/api/roles/') ? { role_id: w.ids.server_role_id } : {}),
  };
  if (call.template.endsWith('/stop')) values.task_id = w.ids.waiting_task_id;
  return call.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const spare = call.template.startsWith('/api/roles/') ? w.spare.server_role_id : (w.spare as Record<string, number>)[name];
    if (call.method === 'DELETE' && spare !== undefined && call.template.endsWith(`{${name}}`)) return String(spare);
    return String(values[name] ?? 1);
  });
}

for (const dialect of DIALECTS) {
  describe(`every route of /api/openapi.json, called without a body over HTTP (${dialect})`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: ApiWorld;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      w = await createApiWorld(server.s);
    });
    afterAll(async () => { await server?.close(); });

    it('never answers 415 or 5xx to a request without a body, and a route that takes none does its work', async () => {
      const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
      const calls = operationsOf(doc).sort(walkOrder);
      expect(calls.length).toBeGreaterThan(150);
      const problems: string[] = [];
      for (const call of calls) {
        // no Content-Type, no Content-Length: what curl -X sends
        const res = await fetch(server.url + fillPath(call, w), { method: call.method, headers: w.admin });
        const text = await res.text();
        const label = `${call.method} ${call.template} → ${res.status} ${text.slice(0, 100)}`;
        if (res.status === 415 || res.status >= 500) problems.push(label);
        else if (!call.needsBody && res.status >= 400 && !isExpectedRefusal(label)) problems.push(label);
      }
      expect(problems).toEqual([]);
    }, 120_000);
  });
}

/**
 * Routes without a documented body that refuse the walk's call anyway, for a reason that is not
 * the missing body: what the world lacks, or a state the route refuses in. A 400 naming a
 * required field is a route whose body the document does not describe, answering as it should.
 */
const EXPECTED_REFUSALS: [RegExp, string][] = [
  [/^\w+ \/api\/project\/\{project_id\}\/inventory\/\{inventory_id\}\/terraform\/.* → 400 .*not a terraform or tofu workspace/, 'the world\'s inventory is static'],
  [/^GET \/api\/project\/\{project_id\}\/hosts\/\{host\} → 404/, 'no inventory of the world lists a host named 1'],
  [/^POST \/api\/project\/\{project_id\}\/inventory\/\{inventory_id\}\/sync → 400 .*has no source to sync/, 'the world\'s inventory is static'],
  [/^\w+ \/api\/(integrations|terraform)\/\{alias\} → 404/, 'no alias is named 1'],
  [/^GET \/api\/integrations\/\{alias\} → 405/, 'a webhook is delivered with POST only: a link checker starts nothing'],
  [/^\w+ \/api\/internal\/runners → 401/, 'runners sign these with their own token'],
  [/^GET \/api\/auth\/oidc\/.* → 404/, 'no identity provider is configured'],
  [/^GET \/api\/metrics → 404/, 'metrics are off unless configured'],
  [/^GET \/\.well-known\/(jwks\.json|openid-configuration) → 404/, 'task identity tokens are off unless configured'],
  [/^DELETE \/api\/apps\/\{app_id\} → 400 .*Built-in apps cannot be deleted/, 'ansible is built in'],
  [/^(DELETE|GET) \/api\/(user\/sessions|users\/\{user_id\}\/2fas\/totp)\/\{(session_id|totp_id)\}(\/qr)? → 404/, 'the world has no other session and no TOTP enrolment'],
  [/^POST \/api\/users\/\{user_id\}\/2fas\/totp → 403 .*TOTP_DISABLED/, 'two-factor is off in this configuration'],
  [/^(DELETE|GET) \/api\/project\/\{project_id\}\/locks\/\{lock_id\} → 404/, 'the world\'s project has no named lock'],
  [/^POST \/api\/project\/\{project_id\}\/tasks\/\{task_id\}\/(confirm|reject) → 400 .*not waiting for confirmation/, 'the world\'s task needs no confirmation'],
  [/^POST \/api\/project\/\{project_id\}\/templates\/\{template_id\}\/inventory\/\{inventory_id\}\/\{action\} → 404/, 'no action is named 1'],
  [/^POST \/api\/project\/\{project_id\}\/notifications\/test → 409 .*Alerts are not enabled/, 'the world\'s project has alerts off'],
  [/^POST \/api\/project\/\{project_id\}\/workflows\/\{workflow_id\}\/runs\/\{run_id\}\/stop → 400 .*already ended/, 'the world\'s run ends once'],
  [/^POST \/api\/project\/\{project_id\}\/tasks\/\{task_id\}\/relaunch_failed → 400 .*no host failed/, 'the world\'s task failed on no host'],
  [/^DELETE \/api\/users\/\{user_id\}\/identities\/\{type\}\/\{provider\} → 404/, 'the world\'s users have no linked identity'],
  [/^\w+ \S+ → 400 \{"error":"\w+: required"\}/, 'a body or query the document does not describe, asked for by name'],
];
const isExpectedRefusal = (label: string) => EXPECTED_REFUSALS.some(([pattern]) => pattern.test(label));
