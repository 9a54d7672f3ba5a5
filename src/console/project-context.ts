import type { AstroGlobal } from 'astro';
import { apiGet, apiGetOr, RunnerApiError } from './runner-api.ts';
import type { Project, ProjectRole, SystemInfo } from './types.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

export interface ShellData { projects: Project[]; info: SystemInfo | null }
export interface ProjectContext extends ShellData { project: Project; role: ProjectRole }

/**
 * What every shell needs: the user's projects (selector) and system info (version, runners).
 * @example const shell = await loadShellData(Astro);
 */
export async function loadShellData(astro: AstroLike): Promise<ShellData> {
  const [projects, info] = await Promise.all([
    apiGet<Project[]>(astro, '/api/projects'),
    apiGetOr<SystemInfo | null>(astro, '/api/info', null),
  ]);
  return { projects, info };
}

/**
 * The shell data plus the project of the route and the user's role in it; null when the id is
 * not a number or the user cannot see the project (the API answers 404).
 * @example const ctx = await loadProjectContext(Astro, Astro.params.id); if (!ctx) return Astro.rewrite('/404');
 */
export async function loadProjectContext(astro: AstroLike, idParam: string | undefined): Promise<ProjectContext | null> {
  const id = Number(idParam);
  if (!Number.isInteger(id) || id <= 0) return null;
  try {
    const [shell, project, role] = await Promise.all([
      loadShellData(astro),
      apiGet<Project>(astro, `/api/project/${id}`),
      apiGet<ProjectRole>(astro, `/api/project/${id}/role`),
    ]);
    return { ...shell, project, role };
  } catch (err) {
    if (err instanceof RunnerApiError && (err.status === 404 || err.status === 400 || err.status === 403)) return null;
    throw err;
  }
}
