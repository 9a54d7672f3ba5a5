import { randomBytes } from 'node:crypto';

type Claims = Record<string, unknown>;

/** Whole-number floats read as integers, as Semaphore turns them before templating. */
function claimText(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value)) return value.toFixed(0);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A `{{ .claim }}` template: each placeholder becomes that claim's text; all must be present. */
function renderTemplate(template: string, claims: Claims): string {
  let complete = true;
  const text = template.replace(/\{\{\s*\.([A-Za-z0-9_:.-]+)\s*\}\}/g, (_, name: string) => {
    const value = claimText(claims[name]);
    if (!value) complete = false;
    return value;
  });
  return complete ? text.trim() : '';
}

/**
 * Semaphore's claim expression: `"a | b | c"` takes the first claim present, left to right; a part
 * with `{{` is a template over the claims. Empty when nothing matches.
 * @example readClaim('preferred_username | email', { email: 'a@b' }) === 'a@b'
 */
export function readClaim(expression: string, claims: Claims): string {
  for (const part of expression.split('|').map((p) => p.trim()).filter(Boolean)) {
    const value = part.includes('{{') ? renderTemplate(part, claims) : claimText(claims[part]);
    if (value) return value;
  }
  return '';
}

/** The groups claim as a list; null when the provider sends none, so memberships are left alone. */
export function readGroups(claimName: string, claims: Claims): string[] | null {
  const value = claims[claimName];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return value.split(',').map((g) => g.trim()).filter(Boolean);
  return null;
}

/** 16 characters of [a-z0-9], for identities without a username claim. */
export function randomUsername(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join('');
}
