import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { startTestServer, type TestResponse, type TestServer } from '../support/harness.ts';
import { createApiWorld, type ApiWorld } from '../support/api-world.ts';
import { mountedRoutes } from '../support/route-table.ts';
import { OPERATIONS } from '../../src/server/openapi/operations.ts';
import { OTHER_METHODS_KEY } from '../../src/server/openapi/openapi-document.ts';
import { validateJson, type JsonSchema } from './json-schema.ts';

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { parameters: { name: string }[]; requestBody?: unknown; responses: Record<string, { content?: { 'application/json': { schema: JsonSchema } } }> }>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface Recorded { method: string; path: string; res: TestResponse }

/** "/api/project/{project_id}/keys" as a pattern over real request paths. */
function pathPattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}/?(\\?.*)?$`);
}

/** The document's operation a request was for, preferring literal segments over parameters. */
function operationOf(doc: OpenApiDoc, method: string, path: string) {
  const candidates = Object.keys(doc.paths).filter((p) => doc.paths[p]![method.toLowerCase()] && pathPattern(p).test(path));
  const best = candidates.sort((a, b) => (b.match(/\{/g)?.length ?? 0) - (a.match(/\{/g)?.length ?? 0)).pop();
  return best ? { template: best, op: doc.paths[best]![method.toLowerCase()]! } : undefined;
}

/** What contradicts the document in one answered request: an undocumented success status or body. */
function problemsOf(doc: OpenApiDoc, { method, path, res }: Recorded): string[] {
  const found = operationOf(doc, method, path);
  if (!found) return [`${method} ${path}: not in the document`];
  if (res.status >= 300) return [];
  const documented = found.op.responses[String(res.status)];
  if (!documented) return [`${method} ${found.template} → ${res.status}, documented: ${Object.keys(found.op.responses).filter((s) => s < '300').join('/')}`];
  const schema = documented.content?.['application/json'].schema;
  if (!schema || !res.headers.get('content-type')?.includes('json')) return [];
  return validateJson(doc, schema, res.body).map((p) => `${method} ${found.template}: ${p}`);
}

/** World values for the path parameters of GET routes; routes needing others are left out. */
function worldPath(template: string, w: ApiWorld): string | null {
  const values: Record<string, string | number> = {
    ...w.ids, value_id: w.ids.extractvalue_id, app_id: 'ansible',
    ...(template.startsWith('/api/runners/') ? { runner_id: w.ids.global_runner_id } : {}),
  };
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (values[name] === undefined) missing = true;
    return String(values[name]);
  });
  return missing ? null : path;
}

for (const dialect of DIALECTS) describe(`the OpenAPI document (${dialect})`, () => {
  let s: TestServer;
  let doc: OpenApiDoc;
  const recorded: Recorded[] = [];
  beforeAll(async () => {
    s = await startTestServer(dialect);
    const call = s.call;
    s.call = async (method, path, body, auth) => {
      const res = await call(method, path, body, auth);
      recorded.push({ method, path, res });
      return res;
    };
    doc = (await s.call('GET', '/api/openapi.json')).body as OpenApiDoc;
  });
  afterAll(async () => { await s.close(); });

  it('is served without a session as OpenAPI 3.1 and names every mounted route', async () => {
    const res = await s.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    // methods OpenAPI 3.1 has no field for (LOCK, UNLOCK) sit under one extension key of the path
    const methodsOf = (item: object) => Object.entries(item).flatMap(([key, value]) => (key === OTHER_METHODS_KEY ? Object.keys(value) : [key.toUpperCase()]));
    const documented = Object.entries(doc.paths).flatMap(([p, item]) => methodsOf(item).map((m) => `${m} ${p}`));
    const mounted = mountedRoutes().map((r) => r.replace(/:(\w+)(\{[^}]+\})?/g, '{$1}').replace(/\/$/, ''));
    expect(mounted.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !mounted.includes(r))).toEqual([]);
  });

  it('describes only routes that are mounted', () => {
    const mounted = mountedRoutes();
    expect(Object.keys(OPERATIONS).filter((key) => !mounted.includes(key))).toEqual([]);
  });

  it('matches every answer given while a project with one of each resource is built and read', async () => {
    const w = await createApiWorld(s);
    for (const [template, item] of Object.entries(doc.paths)) {
      const path = item.get && worldPath(template, w);
      if (path) await s.call('GET', path, undefined, w.admin);
    }
    const successes = recorded.filter((r) => r.res.status < 300);
    expect(successes.length).toBeGreaterThan(60);
    expect(recorded.flatMap((r) => problemsOf(doc, r))).toEqual([]);
  });

  it('names the body each write validates: a body of the wrong shape is a 400 with the reason', async () => {
    const w = await createApiWorld(s);
    const withBody = Object.entries(doc.paths).flatMap(([template, item]) =>
      Object.entries(item).filter(([, op]) => op.requestBody).map(([method]) => ({ method: method.toUpperCase(), template })));
    expect(withBody.length).toBeGreaterThan(35);
    for (const { method, template } of withBody) {
      const path = worldPath(template, w);
      if (!path) continue;
      const res = await s.call(method, path, [1, 2], w.admin);
      expect([res.status, typeof res.body?.error], `${method} ${template}`).toEqual([400, 'string']);
    }
  });

  it('catches a body that contradicts it, so the checks above can fail', () => {
    const project = { $ref: '#/components/schemas/Project' };
    const good = {
      id: 1, name: 'P', created: 'now', alert: false, alert_chat: null, max_parallel_tasks: 0, type: '',
      task_retention_days: 0, task_retention_count: 0, output_retention_days: 0, executor_image: null,
    };
    expect(validateJson(doc, project, good)).toEqual([]);
    expect(validateJson(doc, project, { ...good, id: 'one', extra: 1 })).toEqual(['$.id: expected integer, got string', '$.extra: not in the schema']);
    expect(validateJson(doc, project, { id: 1 })).toContain('$.name: required');
  });
});
