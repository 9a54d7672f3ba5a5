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
    ...w.ids, value_id: w.ids.extractvalue_id, app_id: 'ansible', ...(call.template.startsWith('/api/runners/') ? { runner_id: w.ids.global_runner_id } : {}),
  };
  if (call.template.endsWith('/stop')) values.task_id = w.ids.waiting_task_id;
  return call.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const spare = (w.spare as Record<string, number>)[name];
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
        else if (!call.needsBody && res.status >= 400 && !EXPECTED_REFUSALS[`${call.method} ${call.template}`]) problems.push(label);
      }
      expect(problems).toEqual([]);
    }, 120_000);
  });
}

/** Routes without a body that refuse the walk's call anyway, and why (not for the missing body). */
const EXPECTED_REFUSALS: Record<string, string> = {};
