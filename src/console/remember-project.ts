import type { AstroGlobal } from 'astro';
import { PREFERENCE_COOKIE_MAX_AGE } from './preferences.ts';
import { storeUserOption } from './user-options.ts';

/** Dashboard views `/` may return to. */
export const DASHBOARD_VIEWS = ['history', 'activity', 'stats'] as const;
export type DashboardView = (typeof DASHBOARD_VIEWS)[number];

const COOKIE = { path: '/', maxAge: PREFERENCE_COOKIE_MAX_AGE, sameSite: 'lax' } as const;

/**
 * Remembers the project and the view last visited in it, so `/` returns there (seed 000 §9:
 * last project, last visited view per project): in cookies, and in the user's options so any
 * browser they sign in to returns there too.
 * @example await rememberProject(Astro, 3, 'stats')
 */
export async function rememberProject(astro: Pick<AstroGlobal, 'cookies' | 'locals' | 'request'>, projectId: number, view: DashboardView | 'schedule'): Promise<void> {
  const { cookies } = astro;
  await rememberLastProject(astro, projectId);
  if (cookies.get(`last_view_${projectId}`)?.value !== view) cookies.set(`last_view_${projectId}`, view, COOKIE);
  await storeUserOption(astro, `nav.lastView.${projectId}`, view);
}

/**
 * Remembers the project of any project page, which the drawer keeps selected on the pages
 * outside a project (users, apps, tokens, active tasks), as Semaphore does: in the cookie and
 * in the user's options (which the next page copies back into the cookie, so both must move).
 */
export async function rememberLastProject(astro: Pick<AstroGlobal, 'cookies' | 'locals' | 'request'>, projectId: number): Promise<void> {
  const { cookies } = astro;
  if (cookies.get('last_project')?.value !== String(projectId)) cookies.set('last_project', String(projectId), COOKIE);
  await storeUserOption(astro, 'nav.lastProject', String(projectId));
}

/** The project last visited, among `projects` (the user's own); undefined when none of them is. */
export function lastProject<P extends { id: number }>(cookies: AstroGlobal['cookies'], projects: P[]): P | undefined {
  const id = Number(cookies.get('last_project')?.value);
  return projects.find((p) => p.id === id);
}

/** The view last visited in the project, else history. */
export function lastView(cookies: AstroGlobal['cookies'], projectId: number): DashboardView {
  const value = cookies.get(`last_view_${projectId}`)?.value;
  return (DASHBOARD_VIEWS as readonly string[]).includes(value ?? '') ? (value as DashboardView) : 'history';
}
