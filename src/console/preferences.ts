/** Preferences kept in cookies (so SSR renders them) and mirrored to localStorage when JS runs. */
export type Theme = '' | 'light' | 'dark';

export const PREFERENCE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

/** The theme cookie value, or '' (follow the system's colour scheme). */
export function readTheme(value: string | undefined): Theme {
  return value === 'light' || value === 'dark' ? value : '';
}

/**
 * A same-origin absolute path to go back to after a preference change or sign-in; anything else
 * becomes '/'. Browsers drop tabs and newlines from a Location and read `\\` as `/`, so
 * `/\t/evil` or `/\\evil` would leave the site: control characters and backslashes are refused.
 * @example safeBackPath('//evil.example') // '/'
 */
export function safeBackPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  return value;
}
