/**
 * Reads a value by dot path, as Semaphore's matchers do: `repository.full_name`,
 * `commits.[0].id` (also `commits[0].id` and `commits.0.id`). Undefined when absent.
 * @example readJsonPath({ a: [{ b: 1 }] }, 'a.[0].b') // 1
 */
export function readJsonPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of splitPath(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}

function splitPath(path: string): string[] {
  return path.replace(/\[(\d+)\]/g, '.$1').split('.').filter((segment) => segment !== '');
}

/**
 * Turns a JSON value into the text matchers compare and extractors hand on: strings as they
 * are, numbers in their shortest form (whole-number floats read as integers: 3.0 → "3"),
 * booleans as true/false, objects and arrays as JSON, absent values as undefined.
 */
export function stringifyJsonValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
