import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

/** Semaphore's Swagger 2.0 document, the API contract Signalbox follows. */
export interface SwaggerSpec {
  paths: Record<string, Record<string, Operation>>;
  definitions: Record<string, Schema>;
}

export interface Operation {
  parameters?: { in: string; name: string; schema?: Schema; type?: string; example?: unknown; 'x-example'?: unknown }[];
  responses: Record<string, { schema?: Schema }>;
}

export interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  allOf?: Schema[];
  example?: unknown;
  'x-nullable'?: boolean;
  additionalProperties?: boolean | Schema;
}

/** Semaphore's two API documents beside the checkout: as the 2.16 release shipped it, and as its develop branch has it. */
export const SEMAPHORE_DOCUMENTS = {
  release: { label: 'the 2.16 release', file: 'semaphore-api-2.16-release.yml' },
  develop: { label: 'the develop branch', file: 'semaphore-api-develop.yml' },
} as const;
export type SemaphoreDocument = keyof typeof SEMAPHORE_DOCUMENTS;

/**
 * Where one of Semaphore's documents is, or null. They are not part of the clone: they are used
 * when a shared reference folder sits beside the checkout (`../shared/reference`, however deep
 * the checkout is); otherwise the checks that need them are skipped, saying so.
 */
export function semaphoreDocumentPath(which: SemaphoreDocument): string | null {
  const found = findUpwards(join('shared', 'reference', SEMAPHORE_DOCUMENTS[which].file));
  if (!found) console.warn(`\n*** ${SEMAPHORE_DOCUMENTS[which].file} is not beside the checkout (../shared/reference): the checks against Semaphore's document of ${SEMAPHORE_DOCUMENTS[which].label} are SKIPPED ***\n`);
  return found;
}

function findUpwards(relative: string): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** One of Semaphore's documents (the develop branch's unless named), or null when it is not beside the checkout. */
export function loadSpec(which: SemaphoreDocument = 'develop'): SwaggerSpec | null {
  const path = semaphoreDocumentPath(which);
  return path ? yaml.load(readFileSync(path, 'utf8')) as SwaggerSpec : null;
}

/**
 * Checks a value against a Swagger schema: types, enums, array items and the types of the
 * properties that are present (Semaphore's schemas list no required fields). Returns problems.
 */
export function validateAgainst(spec: SwaggerSpec, schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref) return validateAgainst(spec, resolveRef(spec, schema.$ref), value, at);
  if (schema.allOf) return schema.allOf.flatMap((part) => validateAgainst(spec, part, value, at));
  if (value === null) return [];
  const problems: string[] = [];
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  switch (schema.type) {
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) return [`${at}: expected object, got ${describe(value)}`];
      for (const [name, sub] of Object.entries(schema.properties ?? {})) {
        const v = (value as Record<string, unknown>)[name];
        if (v !== undefined) problems.push(...validateAgainst(spec, sub, v, `${at}.${name}`));
      }
      break;
    case 'array':
      if (!Array.isArray(value)) return [`${at}: expected array, got ${describe(value)}`];
      value.forEach((item, i) => problems.push(...validateAgainst(spec, schema.items ?? {}, item, `${at}[${i}]`)));
      break;
    case 'integer':
      if (!Number.isInteger(value)) problems.push(`${at}: expected integer, got ${describe(value)}`);
      break;
    case 'number':
      if (typeof value !== 'number') problems.push(`${at}: expected number, got ${describe(value)}`);
      break;
    case 'string':
      if (typeof value !== 'string') problems.push(`${at}: expected string, got ${describe(value)}`);
      break;
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${at}: expected boolean, got ${describe(value)}`);
      break;
  }
  return problems;
}

export function resolveRef(spec: SwaggerSpec, ref: string): Schema {
  const name = ref.replace('#/definitions/', '');
  const found = spec.definitions[name];
  if (!found) throw new Error(`unknown definition ${ref}`);
  return found;
}

/** An example body built from a schema's property examples. */
export function exampleOf(spec: SwaggerSpec, schema: Schema): unknown {
  if (schema.$ref) return exampleOf(spec, resolveRef(spec, schema.$ref));
  if (schema.example !== undefined) return schema.example;
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(spec, s) as object));
  if (schema.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      const v = exampleOf(spec, sub);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
  if (schema.type === 'array') return [];
  return undefined;
}

function describe(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}
