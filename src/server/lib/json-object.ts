/**
 * Reads a JSON column that should hold an object; anything else (bad JSON, arrays, null)
 * reads as an empty object.
 * @example parseJsonObject('{"debug":true}') // { debug: true }
 */
export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
  } catch {
    return {};
  }
}
