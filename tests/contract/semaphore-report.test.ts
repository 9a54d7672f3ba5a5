import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createApi } from '../../src/server/app.ts';
import type { Deps } from '../../src/server/deps.ts';
import { buildOpenApiDocument } from '../../src/server/openapi/openapi-document.ts';
import { loadSpec, resolveRef, type Schema, type SwaggerSpec } from './openapi-spec.ts';
import type { JsonSchema } from './json-schema.ts';

type OwnDoc = { paths: Record<string, Record<string, { responses: Record<string, { content?: { 'application/json': { schema: JsonSchema } } }> }>>; components: { schemas: Record<string, JsonSchema> } };

const semaphore = loadSpec();
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** `/project/{project_id}/keys/{key_id}` and `/api/project/{project_id}/keys/{id}` as one key. */
const shape = (path: string) => path.replace(/^\/api/, '').replace(/\/$/, '').replace(/\{\w+\}/g, '{}');

/** Field names of a Swagger response schema (array items' fields for lists). */
function semaphoreFields(spec: SwaggerSpec, schema: Schema | undefined): string[] {
  if (!schema) return [];
  if (schema.$ref) return semaphoreFields(spec, resolveRef(spec, schema.$ref));
  if (schema.type === 'array') return semaphoreFields(spec, schema.items);
  if (schema.allOf) return schema.allOf.flatMap((part) => semaphoreFields(spec, part));
  return Object.keys(schema.properties ?? {});
}

/** Field names of one of our response schemas, or null when we document no body. */
function ownFields(doc: OwnDoc, schema: JsonSchema | undefined): string[] | null {
  if (!schema) return null;
  if (schema.$ref) return ownFields(doc, doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
  if (schema.items) return ownFields(doc, schema.items);
  if (schema.anyOf) return schema.anyOf.flatMap((part) => ownFields(doc, part) ?? []);
  return Object.keys(schema.properties ?? {});
}

/** Semaphore's operations we do not serve, and fields of its answers ours do not document. */
export function compareWithSemaphore(spec: SwaggerSpec, doc: OwnDoc): { compared: number; missingOperations: string[]; missingFields: string[] } {
  const own = new Map(Object.entries(doc.paths).map(([path, item]) => [shape(path), item]));
  const missingOperations: string[] = [];
  const missingFields: string[] = [];
  let compared = 0;
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const ours = own.get(shape(path))?.[method];
      if (!ours) { missingOperations.push(`${method.toUpperCase()} ${path}`); continue; }
      compared++;
      const [status, answer] = Object.entries(item[method]!.responses).find(([code]) => code < '300') ?? [];
      const ourSchema = status ? (ours.responses[status] ?? Object.entries(ours.responses).find(([c]) => c < '300')?.[1])?.content?.['application/json'].schema : undefined;
      const have = ownFields(doc, ourSchema);
      if (!have) continue;
      const lacking = semaphoreFields(spec, answer?.schema).filter((f) => !have.includes(f));
      if (lacking.length) missingFields.push(`${method.toUpperCase()} ${path}: ${lacking.join(', ')}`);
    }
  }
  return { compared, missingOperations, missingFields };
}

describe.skipIf(!semaphore)("Signalbox's document beside Semaphore develop branch's (a report, not a check)", () => {
  it('prints the operations and answer fields of Semaphore we do not have yet', () => {
    const doc = buildOpenApiDocument(createApi({} as Deps).routes) as OwnDoc;
    const report = compareWithSemaphore(semaphore!, doc);
    console.log([
      `Semaphore (develop) operations also in Signalbox's document: ${report.compared}`,
      `Not served (${report.missingOperations.length}):`, ...report.missingOperations.map((o) => `  ${o}`),
      `Answer fields Signalbox's document does not name (${report.missingFields.length} operations):`, ...report.missingFields.map((f) => `  ${f}`),
    ].join('\n'));
    expect(report.compared).toBeGreaterThan(50);
  });

  it('gives a reason in docs/compatibility.md for each operation it does not list', () => {
    const doc = buildOpenApiDocument(createApi({} as Deps).routes) as OwnDoc;
    const reasons = readFileSync(new URL('../../docs/compatibility.md', import.meta.url), 'utf8');
    const unexplained = compareWithSemaphore(semaphore!, doc).missingOperations.filter((op) => !reasons.includes(`- \`${op}\`:`));
    expect(unexplained).toEqual([]);
  });
});
