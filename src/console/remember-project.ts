import type { AstroCookies } from 'astro';
import { PREFERENCE_COOKIE_MAX_AGE } from './preferences.ts';

/** Remembers the project last visited, so `/` returns to it (seed 000 §9 "last project"). */
export function rememberProject(cookies: AstroCookies, projectId: number): void {
  if (cookies.get('last_project')?.value === String(projectId)) return;
  cookies.set('last_project', String(projectId), { path: '/', maxAge: PREFERENCE_COOKIE_MAX_AGE, sameSite: 'lax' });
}
