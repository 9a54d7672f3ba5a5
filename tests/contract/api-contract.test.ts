import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../support/harness.ts';
import { createApiWorld, peopleOf, type ApiWorld } from '../support/api-world.ts';
import { exampleOf, loadSpec, validateAgainst, type Operation } from './openapi-spec.ts';

// Semaphore's document is beside the CI checkout only; a standalone clone skips this walk and
// relies on Signalbox's own document (openapi.test.ts).
const present = loadSpec();
const spec = present ?? { paths: {}, definitions: {} };
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/**
 * Operations of the develop branch's document Signalbox does not implement, with the reason. Each must still
 * answer 404, so an entry goes stale (and this test fails) the day the route appears.
 */
export const NOT_IMPLEMENTED: [RegExp, string][] = [
  [/^GET \/auth\/oidc\//, 'OIDC sign-in is not implemented (auth_methods lists no providers)'],
];

/**
 * Operations whose spec lists no success status, only a refusal the world meets: each must answer
 * exactly that status, with the test that covers its success instead.
 */
export const SPEC_REFUSALS: Record<string, [number, string]> = {
  'POST /project/{project_id}/notifications/test': [409, "the world's project has alerts off; tests/server/api/notifications-test.test.ts sends real alerts"],
};

/** Operations that are not plain JSON calls, with the test that covers them instead. */
export const NOT_JSON: Record<string, string> = {
  'GET /ws': 'a websocket upgrade; covered by tests/server/ws/hub.test.ts',
};

/**
 * Response fields where Signalbox deliberately differs from the spec's schema, as a pattern over
 * the validator's problem text, with the reason.
 */
const FIELD_EXCEPTIONS: [RegExp, string][] = [
  [/^GET \/project\/\{project_id\}\/backup \$\.templates\[\d+\]\.survey_vars: expected string, got array$/,
    "the spec's ProjectBackup types survey_vars as a string, but its own example (and Semaphore's export) carries an array"],
];

/**
 * Fields added to (or replacing) the spec's example body so the request is valid here: the
 * examples omit required references (they carry id 1 or nothing), which a real server refuses.
 */
const BODY_FILLS: Record<string, (w: ApiWorld) => Record<string, unknown>> = {
  'POST /auth/login': () => ({ auth: ADMIN.login, password: ADMIN.password }),
  'POST /project/{project_id}/runners/{runner_id}/active': () => ({ active: false }),
  'POST /runners/{runner_id}/active': () => ({ active: false }),
  'POST /users': (w) => ({ username: `spec-user-${w.ids.project_id}`, email: `spec-${w.ids.project_id}@example.test`, password: 'spec-password-1' }),
  'PUT /users/{user_id}/': (w) => ({ username: `spec-user2-${w.ids.project_id}`, email: `spec2-${w.ids.project_id}@example.test` }),
  'POST /users/{user_id}/password': () => ({ password: 'another-password-1' }),
  'PUT /project/{project_id}/': (w) => ({ id: w.ids.project_id }),
  'POST /project/{project_id}/users': (w) => ({ user_id: w.ids.outsider_id }),
  'POST /project/{project_id}/integrations': (w) => ({ template_id: w.ids.template_id }),
  'PUT /project/{project_id}/integrations/{integration_id}': (w) => ({ template_id: w.ids.template_id }),
  'POST /project/{project_id}/integrations/{integration_id}/values': () => ({ value_source: 'header' }),
  'PUT /project/{project_id}/integrations/{integration_id}/values/{extractvalue_id}': () => ({ value_source: 'header' }),
  'POST /project/{project_id}/integrations/{integration_id}/matchers': () => ({ match_type: 'header', method: 'equals' }),
  'PUT /project/{project_id}/integrations/{integration_id}/matchers/{matcher_id}': () => ({ match_type: 'header', method: 'equals' }),
  // the spec gives no example for `type` (an enum) and key id 1 is another project's
  'POST /project/{project_id}/host_configs': (w) => ({ type: 'host', ssh_key_id: w.ids.key_id }),
  'PUT /project/{project_id}/host_configs/{host_config_id}': (w) => ({ id: w.ids.host_config_id, type: 'host', ssh_key_id: w.ids.key_id }),
  'POST /project/{project_id}/keys': () => ({ type: 'login_password' }),
  'PUT /project/{project_id}/keys/{key_id}': () => ({ type: 'login_password', override_secret: true }),
  // the example's `git@example.com` has no path after the host, so it names no repository
  'POST /project/{project_id}/repositories': (w) => ({ git_url: 'git@example.com:org/repo.git', ssh_key_id: w.ids.key_id }),
  'PUT /project/{project_id}/repositories/{repository_id}': (w) => ({ git_url: 'git@example.com:org/repo.git', ssh_key_id: w.ids.key_id }),
  'POST /project/{project_id}/inventory': (w) => ({ type: 'static', inventory: 'localhost', ssh_key_id: w.ids.key_id }),
  'PUT /project/{project_id}/inventory/{inventory_id}': (w) => ({ type: 'static', inventory: 'localhost', ssh_key_id: w.ids.key_id }),
  'POST /project/{project_id}/environment': () => ({ id: undefined }),
  'PUT /project/{project_id}/environment/{environment_id}': (w) => ({ id: w.ids.environment_id }),
  'POST /project/{project_id}/templates': (w) => ({ id: undefined, ...templateRefs(w) }),
  'PUT /project/{project_id}/templates/{template_id}': (w) => ({ id: w.ids.template_id, ...templateRefs(w) }),
  'POST /project/{project_id}/schedules': (w) => ({ name: 'From spec', template_id: w.ids.template_id }),
  // the example names a template called "Build website", which the world does not have
  'POST /project/{project_id}/tasks': (w) => ({ template_name: undefined, template_id: w.ids.template_id }),
  'PUT /project/{project_id}/schedules/{schedule_id}': (w) => ({ id: w.ids.schedule_id, name: 'From spec', template_id: w.ids.template_id }),
  // the example's one node has no kind a run could start with, nor a template of the world
  'POST /project/{project_id}/workflows': (w) => workflowGraph(w),
  'PUT /project/{project_id}/workflows/{workflow_id}': (w) => workflowGraph(w),
  // the spec gives no example for the decision (an enum)
  'POST /project/{project_id}/workflows/{workflow_id}/runs/{run_id}/approvals/{node_id}': () => ({ status: 'approved' }),
};

function workflowGraph(w: ApiWorld) {
  return { name: 'From spec', nodes: [{ id: 1, kind: 'task', template_id: w.ids.template_id }], edges: [] };
}

function templateRefs(w: ApiWorld) {
  return { repository_id: w.ids.repository_id, inventory_id: w.ids.inventory_id, environment_id: w.ids.environment_id };
}

/**
 * A path parameter's value in the world; `alias_id` depends on which aliases the path is about,
 * and a DELETE of a resource names a spare one (the world's own are in use, so deleting them is a 400).
 */
function paramValue(w: ApiWorld, call: SpecCall, name: string, unknown?: string): string {
  const { path } = call;
  const spare = (w.spare as Record<string, number>)[name];
  if (call.method === 'DELETE' && spare !== undefined && path.replace(/\/$/, '').endsWith(`{${name}}`)) return String(spare);
  // a finished task cannot be stopped: stop the queued one
  if (name === 'task_id' && path.endsWith('/stop')) return String(w.ids.waiting_task_id);
  if (name === 'runner_id' && path.startsWith('/runners')) return String(w.ids.global_runner_id);
  if (name === 'alias_id') return String(path.includes('{integration_id}') ? w.ids.integration_alias_id : w.ids.project_alias_id);
  const value = (w.ids as Record<string, number | string>)[name];
  if (value === undefined && unknown !== undefined) return unknown;
  if (value === undefined) throw new Error(`no world value for {${name}} in ${path}`);
  return String(value);
}

interface SpecCall { key: string; method: string; path: string; op: Operation }

/** Every operation of the spec, as "METHOD /path". */
function specCalls(): SpecCall[] {
  const calls: SpecCall[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation>)[method];
      if (op) calls.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op });
    }
  }
  return calls;
}

/**
 * Whether the operation changes a person or a session (signs out, edits or deletes a user, the
 * signed-in user's tokens and options): its world needs people of its own, not the shared ones.
 */
function changesPeople(call: SpecCall): boolean {
  return /^\/(auth|users?)(\/|$)/.test(call.path);
}

function notImplementedReason(call: SpecCall): string | undefined {
  return NOT_IMPLEMENTED.find(([re]) => re.test(call.key))?.[1];
}

/** The request the spec describes, with real ids and the example body (plus fills). */
function buildRequest(call: SpecCall, w: ApiWorld, unknownIds?: string): { url: string; body: unknown } {
  let url = `/api${call.path.replace(/\{(\w+)\}/g, (_, name: string) => paramValue(w, call, name, unknownIds))}`;
  const query = (call.op.parameters ?? []).filter((p) => p.in === 'query' && p['x-example'] !== undefined);
  if (query.length) url += `?${new URLSearchParams(query.map((p) => [p.name, String(p['x-example'])])).toString()}`;
  const bodyParam = (call.op.parameters ?? []).find((p) => p.in === 'body');
  if (!bodyParam?.schema) return { url, body: undefined };
  const example = (exampleOf(spec, bodyParam.schema) ?? {}) as Record<string, unknown>;
  const body = { ...example, ...(BODY_FILLS[call.key]?.(w) ?? {}) };
  return { url, body: JSON.parse(JSON.stringify(body)) };
}

/**
 * Sends one spec operation and returns what contradicts the spec: a status the spec does not list
 * for success, or a body that does not match the response schema of that status.
 */
async function checkCall(s: TestServer, call: SpecCall, w: ApiWorld): Promise<string[]> {
  const { url, body } = buildRequest(call, w);
  const res = await s.call(call.method, url, body, w.admin);
  const listed = Object.keys(call.op.responses).map(Number).filter((code) => code < 300);
  if (!listed.includes(res.status)) return [`${call.key} → ${res.status} (spec: ${listed.join('/')}) ${res.text.slice(0, 200)}`];
  const schema = call.op.responses[String(res.status)]?.schema;
  if (!schema) return res.status === 204 && res.text !== '' ? [`${call.key}: 204 with a body`] : [];
  const value = res.headers.get('content-type')?.includes('json') ? res.body : res.text;
  return validateAgainst(spec, schema, value)
    .filter((problem) => !FIELD_EXCEPTIONS.some(([re]) => re.test(`${call.key} ${problem}`)))
    .map((problem) => `${call.key}: ${problem}`);
}

describe.skipIf(!present)('the contract checker', () => {
  it('reports a body that contradicts the schema, so the walk below can fail', () => {
    const project = { $ref: '#/definitions/Project' };
    expect(validateAgainst(spec, project, { id: 1, name: 'P', alert: false })).toEqual([]);
    expect(validateAgainst(spec, project, { id: 'one', name: 7 })).toEqual(['$.id: expected integer, got string', '$.name: expected string, got number']);
    expect(validateAgainst(spec, { type: 'array', items: project }, {})).toEqual(['$: expected array, got object']);
  });
});

for (const dialect of DIALECTS) describe.skipIf(!present)(`the develop branch's API contract (${dialect})`, () => {
  let s: TestServer;
  let shared: ApiWorld;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    shared = await createApiWorld(s);
  });
  afterAll(async () => { await s.close(); });

  const calls = specCalls();

  it('names only operations of the spec in its exception lists', () => {
    const keys = calls.map((c) => c.key);
    expect(Object.keys(NOT_JSON).filter((k) => !keys.includes(k))).toEqual([]);
    expect(Object.keys(SPEC_REFUSALS).filter((k) => !keys.includes(k))).toEqual([]);
    expect(NOT_IMPLEMENTED.filter(([re]) => !keys.some((k) => re.test(k))).map(([re]) => String(re))).toEqual([]);
  });

  for (const call of calls) {
    if (NOT_JSON[call.key]) {
      it.skip(`${call.key}: ${NOT_JSON[call.key]}`, () => {});
      continue;
    }
    const refusal = SPEC_REFUSALS[call.key];
    if (refusal) {
      it(`answers ${call.key} with the listed ${refusal[0]} (${refusal[1]})`, async () => {
        const { url, body } = buildRequest(call, shared);
        expect(Object.keys(call.op.responses)).toContain(String(refusal[0]));
        expect((await s.call(call.method, url, body, shared.admin)).status).toBe(refusal[0]);
      });
      continue;
    }
    const reason = notImplementedReason(call);
    if (reason) {
      it(`answers ${call.key} with 404 while not implemented (${reason})`, async () => {
        const { url, body } = buildRequest(call, shared, '1');
        const res = await s.call(call.method, url, body, shared.admin);
        expect(res.status, `${call.key} now answers ${res.status}: move it out of NOT_IMPLEMENTED`).toBe(404);
      });
      continue;
    }
    it(`answers ${call.key} as the spec describes`, async () => {
      // Reads share one world; writes get their own, since they change or delete what they touch.
      // A world's people (a session and two users with passwords: three bcrypt rounds) are most of
      // its cost, so a write's world has the shared world's people unless the write changes people.
      const w = call.method === 'GET' ? shared : await createApiWorld(s, { people: changesPeople(call) ? undefined : peopleOf(shared) });
      expect(await checkCall(s, call, w)).toEqual([]);
    });
  }
});
