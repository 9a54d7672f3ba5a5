/**
 * A stored credential goes only to the destination it was given for. When an update changes
 * where (or how) a credential is sent — a storage's URL or sign-in, a channel's server, a
 * webhook's URL — the stored one is dropped unless the request gives it again, so someone who
 * may edit the resource but never saw its secret cannot point it at their own listener.
 * @example keptSecret(input.secret, row.secret, row.url === input.url)
 */
export function keptSecret<T>(supplied: T | null | undefined, stored: T | null, sameDestination: boolean): T | null {
  return supplied || (sameDestination ? stored : null);
}

/**
 * Whether two parameter sets agree on every key that says where or how a credential is sent.
 * @example sameValues(oldParams, newParams, ['url', 'auth_method'])
 */
export function sameValues(before: Record<string, unknown>, after: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.every((key) => (before[key] ?? '') === (after[key] ?? ''));
}
