import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { startTestServer, type TestServer } from '../support/harness.ts';
import { createApiWorld, type ApiWorld } from '../support/api-world.ts';

/** A field's JSON type: `integer`, `string`, one of `values`, `any`; `?` allows null. */
type Field = 'integer' | 'integer?' | 'string' | 'string?' | 'any' | { values: string[] };
type Shape = Record<string, Field>;

const int: Field = 'integer';
const str: Field = 'string';
const nullableInt: Field = 'integer?';
const nullableStr: Field = 'string?';
const object = (fields: Shape): Shape => fields;

/**
 * Shapes the 2.16 Swagger document leaves out, written from Semaphore 2.16's Go structs (the
 * JSON tags are the contract its web UI reads): `taskRes` of api/tasks/tasks.go,
 * `TaskStageWithResult` of db/Task.go, `AnsibleTaskHost` and `AnsibleTaskError` of db/ansible.go.
 */
const SHAPES = {
  pool: object({
    task_id: int, project_id: int, project_name: str, username: str, runner_id: nullableInt, runner_name: nullableStr,
    status: str, location: { values: ['queue', 'running'] },
  }),
  stage: object({
    id: int, task_id: int, start: nullableStr, end: nullableStr, start_output_id: nullableInt, end_output_id: nullableInt,
    type: { values: ['init', 'terraform_plan', 'running', 'print_result'] }, result: 'any',
  }),
  host: object({
    id: int, task_id: int, project_id: int, host: str, changed: int, failed: int, ignored: int, ok: int, rescued: int, skipped: int, unreachable: int, created: str,
  }),
  error: object({ id: int, task_id: int, project_id: int, host: str, task: str, error: str, created: str }),
};

function fits(field: Field, value: unknown): boolean {
  if (field === 'any') return true;
  if (typeof field === 'object') return field.values.includes(value as string);
  if (value === null) return field.endsWith('?');
  return field.startsWith('integer') ? Number.isInteger(value) : typeof value === 'string';
}

/** Every field the shape has and the item lacks (or the other way round), and every wrong type. */
function contradictions(shape: Shape, items: unknown[]): string[] {
  const expected = Object.keys(shape).sort();
  return items.flatMap((item, i) => {
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    const fieldProblems = JSON.stringify(keys) === JSON.stringify(expected) ? [] : [`[${i}] has fields ${keys.join(',')}; the shape has ${expected.join(',')}`];
    const typeProblems = expected.filter((k) => k in record && !fits(shape[k]!, record[k])).map((k) => `[${i}].${k}: ${JSON.stringify(record[k])} is not ${JSON.stringify(shape[k])}`);
    return [...fieldProblems, ...typeProblems];
  });
}

describe('the shape checker', () => {
  it('reports a missing field, an extra one and a wrong type', () => {
    expect(contradictions(SHAPES.error, [{ id: 1, task_id: 1, project_id: 1, host: 'h', task: 't', error: 'e', created: 'c' }])).toEqual([]);
    expect(contradictions(SHAPES.error, [{ id: 1, task_id: 1, project_id: 1, host: 'h', task: 't', error: 'e' }])).toHaveLength(1);
    expect(contradictions(SHAPES.error, [{ id: '1', task_id: 1, project_id: 1, host: 'h', task: 't', error: 'e', created: 'c', extra: 1 }])).toHaveLength(2);
  });
});

for (const dialect of DIALECTS) describe(`task pool and summary shapes (${dialect})`, () => {
  let s: TestServer;
  let w: ApiWorld;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    w = await createApiWorld(s);
    const { db } = s.deps;
    const { project_id, task_id } = w.ids;
    await db.updateTable('task').set({ status: 'running' }).where('id', '=', task_id).execute();
    const created = new Date().toISOString();
    const output = await db.insertInto('task_output').values([{ task_id, time: created, output: 'PLAY [all]' }, { task_id, time: created, output: 'PLAY RECAP' }]).returning('id').execute();
    await db.insertInto('task_stage').values([
      { task_id, type: 'running', start: created, end: created, start_output_id: output[0]!.id, end_output_id: output[0]!.id, result: null },
      { task_id, type: 'print_result', start: created, end: null, start_output_id: null, end_output_id: null, result: null },
    ]).execute();
    await db.insertInto('task_ansible_host').values({ task_id, project_id, host: 'web1', ok: 3, changed: 1, unreachable: 0, failed: 1, skipped: 0, rescued: 0, ignored: 0, created }).execute();
    await db.insertInto('task_ansible_error').values({ task_id, project_id, host: 'web1', task: 'restart nginx', error: 'service not found', created }).execute();
  });
  afterAll(async () => { await s.close(); });

  const cases: [string, keyof typeof SHAPES, (w: ApiWorld) => string][] = [
    ['GET /api/tasks', 'pool', () => '/api/tasks'],
    ['GET /api/project/{id}/tasks/{id}/stages', 'stage', (x) => `${x.base}/tasks/${x.ids.task_id}/stages`],
    ['GET /api/project/{id}/tasks/{id}/ansible/hosts', 'host', (x) => `${x.base}/tasks/${x.ids.task_id}/ansible/hosts`],
    ['GET /api/project/{id}/tasks/{id}/ansible/errors', 'error', (x) => `${x.base}/tasks/${x.ids.task_id}/ansible/errors`],
  ];
  for (const [route, shape, path] of cases) {
    it(`answers ${route} with a list in Semaphore's shape`, async () => {
      const res = await s.call('GET', path(w), undefined, w.admin);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body) && res.body.length).toBeGreaterThan(0);
      expect(contradictions(SHAPES[shape], res.body)).toEqual([]);
    });
  }
});
