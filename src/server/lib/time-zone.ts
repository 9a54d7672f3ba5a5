/**
 * The canonical spelling of a time zone the runtime knows (`europe/berlin` → `Europe/Berlin`),
 * or null for a name it does not know.
 * @example canonicalTimeZone('America/New_York') // 'America/New_York'
 */
export function canonicalTimeZone(name: string): string | null {
  if (!name.trim()) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Every zone name the runtime knows, for pickers. */
export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');
