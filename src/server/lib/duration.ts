const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/**
 * A Go-style duration (`30s`, `10m`, `1h`, `1h30m`) in whole seconds; null when it is not one.
 * A bare number is read as seconds.
 * @example parseDuration('1h30m') // 5400
 */
export function parseDuration(text: string): number | null {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value);
  if (!/^(\d+[hms])+$/.test(value)) return null;
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+)([hms])/g)) total += Number(amount) * UNIT_SECONDS[unit!]!;
  return total;
}
