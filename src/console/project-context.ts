import type { AstroGlobal } from 'astro';
import { apiGet, apiGetOr, RunnerApiError } from './runner-api.ts';
import { lastProject, rememberLastProject } from './remember-project.ts';
import type { Project, ProjectRole, SystemInfo, User } from './types.ts';
import { routeId } from './route-id.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

export interface ShellData { projects: Project[]; info: SystemInfo | null }
export interface ProjectContext extends ShellData { project: Project; role: ProjectRole }

/**
 * What every shell needs: the user's projects (selector) and system info (version, runners).
 * @example const shell = await loadShellData(Astro);
 */
export async function loadShellData(astro: AstroLike): Promise<ShellData> {
  const [projects, info] = await Promise.all([apiGet<Project[]>(astro, '/api/projects'), loadSystemInfo(astro)]);
  return { projects, info };
}

/** Seed 000 §6: only admins and users with can_create_project see New project and Restore. */
export function mayCreateProjects(user: User | undefined): boolean {
  return Boolean(user?.admin || user?.can_create_project);
}

/** System info changes only with the server's configuration, so it is kept this long. */
const INFO_TTL_MS = 30_000;
/** Per runner API: servers sharing one process (tests, one console for several APIs) keep theirs apart. */
const cachedInfo = new WeakMap<object, { value: SystemInfo; until: number }>();

/** GET /api/info, shared by all requests to one host for INFO_TTL_MS (it is the same for every user). */
async function loadSystemInfo(astro: AstroLike): Promise<SystemInfo | null> {
  const api = astro.locals.runnerApi.target;
  const cached = cachedInfo.get(api);
  if (cached && cached.until > Date.now()) return cached.value;
  const info = await apiGetOr<SystemInfo | null>(astro, '/api/info', null);
  if (info) cachedInfo.set(api, { value: info, until: Date.now() + INFO_TTL_MS });
  return info;
}

/**
 * The shell data plus the project of the route and the user's role in it; null when the id is
 * not a number or the user cannot see the project (the API answers 404).
 * @example const ctx = await loadProjectContext(Astro, Astro.params.id); if (!ctx) return Astro.rewrite('/404');
 */
export async function loadProjectContext(astro: AstroLike & Pick<AstroGlobal, 'cookies'>, idParam: string | undefined): Promise<ProjectContext | null> {
  const id = routeId(idParam);
  if (id === null) return null;
  try {
    const [shell, role] = await Promise.all([loadShellData(astro), apiGet<ProjectRole>(astro, `/api/project/${id}/role`)]);
    // The user's project list already holds the project (one API call fewer per page); an
    // admin looking at a project they are not a member of needs it fetched.
    const project = shell.projects.find((p) => p.id === id) ?? await apiGet<Project>(astro, `/api/project/${id}`);
    await rememberLastProject(astro, id);
    return { ...shell, project, role };
  } catch (err) {
    if (err instanceof RunnerApiError && (err.status === 404 || err.status === 400 || err.status === 403)) return null;
    throw err;
  }
}

/**
 * The project the drawer shows on a page outside any project: the one last visited, else the
 * first of the user's projects (where `/` would go), with the user's role in it.
 * @example const selected = await loadDrawerProject(Astro, shell.projects);
 */
export async function loadDrawerProject(astro: AstroLike & Pick<AstroGlobal, 'cookies'>, projects: Project[]): Promise<{ project: Project; role: ProjectRole | undefined } | null> {
  const project = lastProject(astro.cookies, projects) ?? projects[0];
  if (!project) return null;
  const role = await apiGetOr<ProjectRole | undefined>(astro, `/api/project/${project.id}/role`, undefined);
  return { project, role };
}

/**
 * The project holding task `taskId` among the user's projects, for a task log opened with `?t=`
 * over a page outside any project (/tasks, /project/new); null when none holds it. Asks one
 * project after another, which is only done when such a page carries `?t=`.
 * @example const projectId = await findTaskProject(Astro, shell.projects, 42);
 */
export async function findTaskProject(astro: AstroLike, projects: Project[], taskId: number): Promise<number | null> {
  for (const project of projects) {
    const task = await apiGetOr<{ id: number } | null>(astro, `/api/project/${project.id}/tasks/${taskId}`, null);
    if (task) return project.id;
  }
  return null;
}
