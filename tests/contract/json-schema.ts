/** A JSON Schema (2020-12) as the OpenAPI document holds it. */
export type JsonSchema = {
  $ref?: string; type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[];
  additionalProperties?: boolean | JsonSchema; items?: JsonSchema; enum?: unknown[]; const?: unknown;
  anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[];
};

/**
 * Checks a value against a schema of the document: types, required and unknown properties,
 * enums, array items and unions, following `$ref`s into `components.schemas`. Returns problems.
 * @example validateJson(doc, { $ref: '#/components/schemas/Project' }, body) // []
 */
export function validateJson(doc: { components?: { schemas?: Record<string, JsonSchema> } }, schema: JsonSchema, value: unknown, at = '$'): string[] {
  if (schema.$ref) {
    const target = doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')];
    if (!target) return [`${at}: unknown reference ${schema.$ref}`];
    return validateJson(doc, target, value, at);
  }
  if (schema.allOf) return schema.allOf.flatMap((part) => validateJson(doc, part, value, at));
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const tries = union.map((part) => validateJson(doc, part, value, at));
    return tries.some((problems) => problems.length === 0) ? [] : tries.reduce((a, b) => (a.length <= b.length ? a : b));
  }
  if (schema.enum && !schema.enum.some((v) => v === value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  if ('const' in schema && schema.const !== value) return [`${at}: expected ${JSON.stringify(schema.const)}`];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length && !types.some((t) => hasType(value, t))) return [`${at}: expected ${types.join(' or ')}, got ${typeName(value)}`];
  if (isObject(value)) return objectProblems(doc, schema, value, at);
  if (Array.isArray(value) && schema.items) return value.flatMap((item, i) => validateJson(doc, schema.items!, item, `${at}[${i}]`));
  return [];
}

function objectProblems(doc: Parameters<typeof validateJson>[0], schema: JsonSchema, value: Record<string, unknown>, at: string): string[] {
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((name) => !(name in value)).map((name) => `${at}.${name}: required`);
  for (const [name, item] of Object.entries(value)) {
    const sub = properties[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (sub) problems.push(...validateJson(doc, sub, item, `${at}.${name}`));
    else if (schema.additionalProperties === false) problems.push(`${at}.${name}: not in the schema`);
  }
  return problems;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null': return value === null;
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'array': return Array.isArray(value);
    case 'object': return isObject(value);
    default: return typeof value === type;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}
