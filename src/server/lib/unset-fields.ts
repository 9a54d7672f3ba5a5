/** `T` with the named fields optional and never null: what `leaveOutUnset` returns. */
export type WithoutUnset<T, K extends keyof T> = Omit<T, K> & { [P in K]?: Exclude<T[P], null> };

/**
 * The object without those of the named fields that are null. Semaphore's answers leave unset
 * pointer fields out (`omitempty`) where its document types them as plain strings or numbers.
 * @example leaveOutUnset({ id: 1, run_at: null }, ['run_at']) // { id: 1 }
 */
export function leaveOutUnset<T extends object, K extends keyof T>(object: T, keys: readonly K[]): WithoutUnset<T, K> {
  const copy: Partial<T> = { ...object };
  for (const key of keys) if (copy[key] === null) delete copy[key];
  return copy as WithoutUnset<T, K>;
}
