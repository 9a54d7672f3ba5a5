/**
 * The value `record` holds under `key` itself, never one it inherits from Object.prototype
 * (`constructor`, `toString`, `__proto__`): a key taken from a request, a form or a stored
 * setting cannot reach them.
 * @example ownValue({ name: 'user.name' }, 'constructor') // undefined
 */
export function ownValue<V>(record: Readonly<Partial<Record<string, V>>> | null | undefined, key: string): V | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}
