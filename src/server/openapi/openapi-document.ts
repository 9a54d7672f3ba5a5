import { z } from 'zod';
import { VERSION } from '../version.ts';
import { OPERATIONS, type OperationDoc } from './operations.ts';
import { errorSchema } from './response-schemas.ts';

/** A route of the router's table, as Hono lists it. */
export interface MountedRoute { method: string; path: string }

type JsonSchema = Record<string, unknown>;

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
/**
 * Where other methods go (the terraform backend's LOCK and UNLOCK): OpenAPI 3.1 has no field for
 * them, so they use 3.2's `additionalOperations`, as an extension.
 */
export const OTHER_METHODS_KEY = 'x-additionalOperations';
const ERROR_ANSWERS: Record<string, string> = {
  400: 'Invalid input: `{"error": "<field>: <problem>"}`', 401: 'Not signed in', 403: 'Not allowed', 404: 'No such resource',
};

/**
 * The OpenAPI 3.1 document of every route the runner API mounts, built from the router's own
 * table and the zod schemas the handlers validate with, so it cannot drift from what is served.
 * @example buildOpenApiDocument(api.routes)
 */
export function buildOpenApiDocument(routes: readonly MountedRoute[]): JsonSchema {
  const schemas: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of uniqueRoutes(routes)) {
    const { path, parameters } = openApiPath(route.path);
    const doc = OPERATIONS[`${route.method} ${route.path}`];
    const item = (paths[path] ??= {});
    const op = operation(route, doc, parameters, schemas);
    if (METHODS.has(route.method)) item[route.method.toLowerCase()] = op;
    else ((item[OTHER_METHODS_KEY] ??= {}) as Record<string, JsonSchema>)[route.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Signalbox runner API', version: VERSION, description: "Semaphore UI 2.16's REST API as Signalbox serves it." },
    servers: [{ url: '/' }],
    components: {
      schemas,
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'semaphore' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    security: [{ cookie: [] }, { bearer: [] }],
    paths,
  };
}

function uniqueRoutes(routes: readonly MountedRoute[]): MountedRoute[] {
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.method} ${r.path}`;
    // ALL is middleware, not a route
    if (r.method === 'ALL' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `/api/a/:b{x|y}` → `/api/a/{b}` with its parameters (ids are integers, alternatives an enum). */
export function openApiPath(honoPath: string): { path: string; parameters: JsonSchema[] } {
  const parameters: JsonSchema[] = [];
  const path = honoPath.replace(/\/$/, '').replace(/:(\w+)(\{([^}]+)\})?/g, (_, name: string, _pattern, alternatives?: string) => {
    const schema = alternatives ? { type: 'string', enum: alternatives.split('|') } : name.endsWith('_id') && name !== 'token_id' ? { type: 'integer', minimum: 1 } : { type: 'string' };
    parameters.push({ name, in: 'path', required: true, schema });
    return `{${name}}`;
  });
  return { path: path || '/', parameters };
}

function operation(route: MountedRoute, doc: OperationDoc | undefined, parameters: JsonSchema[], schemas: Record<string, JsonSchema>): JsonSchema {
  const status = String(doc?.status ?? 200);
  const success: JsonSchema = { description: status === '204' ? 'Done, no body' : 'Success' };
  if (doc?.response) success.content = { 'application/json': { schema: toSchema(doc.response, 'output', schemas) } };
  const op: JsonSchema = {
    operationId: operationId(route),
    summary: doc?.summary ?? `${route.method} ${route.path}`,
    tags: [tagOf(route.path)],
    parameters: [...parameters, ...queryParameters(doc?.query, schemas)],
    responses: { [status]: success, ...errorAnswers(schemas) },
  };
  if (doc?.body) op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(doc.body, 'input', schemas) } } };
  return op;
}

function queryParameters(query: z.ZodObject | undefined, schemas: Record<string, JsonSchema>): JsonSchema[] {
  return Object.entries(query?.shape ?? {}).map(([name, schema]) => ({ name, in: 'query', required: false, schema: toSchema(schema as z.ZodType, 'input', schemas) }));
}

function errorAnswers(schemas: Record<string, JsonSchema>): JsonSchema {
  const content = { 'application/json': { schema: toSchema(errorSchema, 'output', schemas) } };
  return Object.fromEntries(Object.entries(ERROR_ANSWERS).map(([code, description]) => [code, { description, content }]));
}

/** A zod schema as JSON Schema; named parts (`.meta({ id })`) go to components and are referenced. */
function toSchema(schema: z.ZodType, io: 'input' | 'output', schemas: Record<string, JsonSchema>): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  const out = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [name, def] of Object.entries(out.$defs ?? {})) schemas[name] = def;
  delete out.$defs;
  delete out.$schema;
  return out;
}

function operationId(route: MountedRoute): string {
  const words = route.path.replace(/^\/api\//, '').replace(/\{[^}]+\}/g, '').split(/[/:_.-]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function tagOf(path: string): string {
  const parts = path.replace(/^\/api\//, '').split('/');
  return parts[0] === 'project' && parts[2] ? parts[2] : parts[0]!;
}
