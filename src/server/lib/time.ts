/** Current time as the ISO-8601 UTC string every table stores. */
export function now(): string {
  return new Date().toISOString();
}

export function toFlag(value: boolean | undefined | null): number {
  return value ? 1 : 0;
}
