import type { AstroGlobal } from 'astro';
import { apiGet, apiGetCursorPage, apiGetOr, RunnerApiError } from './runner-api.ts';
import { idField, postedForm, runDelete, runForm, textField, type FormOutcome } from './form-loop.ts';
import { PREFERENCE_COOKIE_MAX_AGE } from './preferences.ts';
import { PERMISSION, type ProjectRole, type Task, type User } from './types.ts';
import { viewInputSchema, viewPositionsSchema } from '../server/domain/views/view.ts';
import { confirmNames, runBulkBar, type BulkBarData } from './template-bulk.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request' | 'redirect' | 'response' | 'cookies' | 'url'>;

/** A view (tab) of the template list (`GET /api/project/{id}/views`). */
export interface TemplateView { id: number; title: string; position: number }

/** The fields of a template the console's template screens read (`GET .../templates`). */
export interface TemplateItem {
  id: number; project_id: number; name: string; app: string; type: string; description: string;
  playbook: string; view_id: number | null; last_task: Task | null; tasks: number;
  inventory_id: number | null; repository_id: number | null; environment_id: number | null;
  /** every variable group in order (environment_id is the first) */
  environment_ids?: number[];
  build_template_id: number | null; start_version: string | null; autorun: boolean; git_branch: string | null;
  arguments: string | null; runner_tag: string | null; suppress_success_alerts: boolean; alert_on?: string;
  /** nothing may start it (Signalbox) */
  disabled?: boolean;
  allow_override_args_in_task: boolean; allow_override_branch_in_task: boolean;
  survey_vars: { name?: string; title?: string; type?: string; required?: boolean; description?: string | null }[];
  vaults: { id: number; name: string | null; type: string; vault_key_id: number | null; script: string | null }[];
  task_params: Record<string, unknown>;
  /** the container its tasks run in (null: the project's, the server's, or the host) */
  executor_image?: string | null; executor_network?: string; executor_cpus?: number | null; executor_memory?: string | null;
  executor_user?: string | null; executor_pull?: string | null;
}

/**
 * The template details page's lines about its container, beside the image: network, limits,
 * user and pull policy, each only when it says something.
 * @example containerFacts(template, t) // [['Network', 'None'], ['Memory', '512m']]
 */
export function containerFacts(template: TemplateItem, t: (key: string) => string): [string, string][] {
  const tf = (key: string) => t(`templateForm.${key}`);
  const facts: [string, string | null | undefined][] = [
    [tf('executor_network'), tf(`network_${template.executor_network ?? 'bridge'}`)],
    [tf('executor_cpus'), template.executor_cpus ? String(template.executor_cpus) : null],
    [tf('executor_memory'), template.executor_memory],
    [tf('executor_user'), template.executor_user],
    [tf('executor_pull'), template.executor_pull ? tf(`pull_${template.executor_pull.replace('-', '_')}`) : tf('pull_default')],
  ];
  return facts.filter((fact): fact is [string, string] => Boolean(fact[1]));
}

/** An app of `GET /api/apps`. */
export interface AppItem { id: string; title: string; icon: string; color: string; active: boolean }

/** Seed 001 §6: New template, view editing, row actions of resources. */
export function mayManage(user: User | undefined, role: ProjectRole): boolean {
  return Boolean(user?.admin) || (role.permissions & PERMISSION.manageResources) !== 0;
}

/** Seed 001 §6: template delete, copy and edit. */
export function mayUpdate(user: User | undefined, role: ProjectRole): boolean {
  return Boolean(user?.admin) || (role.permissions & PERMISSION.updateProject) !== 0;
}

const COOKIE = { path: '/', maxAge: PREFERENCE_COOKIE_MAX_AGE, sameSite: 'lax' } as const;

/** The cookie holding the view last visited in a project's template list ('' = All). */
const viewCookie = (projectId: number) => `tpl_view_${projectId}`;

/** Remembers the view (null = All) last visited in the project's template list. */
export function rememberTemplateView(cookies: AstroLike['cookies'], projectId: number, viewId: number | null): void {
  const value = viewId === null ? '' : String(viewId);
  if ((cookies.get(viewCookie(projectId))?.value ?? '') !== value) cookies.set(viewCookie(projectId), value, COOKIE);
}

/** The view last visited in the project's template list, or null (All). */
export function rememberedTemplateView(cookies: AstroLike['cookies'], projectId: number): number | null {
  const value = cookies.get(viewCookie(projectId))?.value ?? '';
  return /^\d{1,10}$/.test(value) ? Number(value) : null;
}

export interface ViewEditorValues { id: number; title: string }

export interface TemplateListData {
  views: TemplateView[];
  templates: TemplateItem[];
  apps: AppItem[];
  /** the 5 latest tasks of the expanded row (`?open=<templateId>`) */
  openTasks: Task[];
  openId: number | null;
  viewForm: FormOutcome<ViewEditorValues>;
  /** the search words (`?q=`), '' for none */
  q: string;
  /** reads the page after this one; null on the last page */
  nextCursor: string | null;
  /** this is not the first page (`?after=`) */
  paged: boolean;
  /** the bulk bar: its form, the delete confirmation's ids, the actions offered */
  bulk: BulkBarData;
  /** the names the delete confirmation lists, by id (empty when it is not open) */
  confirmNames: Map<number, string>;
}

/** Templates shown a page at a time: a project may hold thousands. */
export const TEMPLATE_PAGE_SIZE = 100;

/**
 * The template list of a project (all templates, or one view's) with the forms of its view
 * editor: save (new rows carry a negative id until saved), move up/down, delete.
 * `bulkActions` are the bulk bar's actions this user may choose (template-bulk.ts bulkActionsFor).
 * Returns a Response when a form was handled (a redirect) or the view does not exist.
 * @example const list = await loadTemplateList(Astro, ctx.project.id, null, messages, ['run']); if (list instanceof Response) return list;
 */
export async function loadTemplateList(
  astro: AstroLike, projectId: number, viewId: number | null, titleRequired: string, bulkActions: string[] = [],
): Promise<TemplateListData | Response> {
  const base = `/api/project/${projectId}`;
  const self = astro.url.pathname;
  // the All tab keeps `view=all`, so it is not sent on to the remembered view
  const editor = viewId === null ? `${self}?view=all&views=edit` : `${self}?views=edit`;
  const views = (await apiGet<TemplateView[]>(astro, `${base}/views`)).sort((a, b) => a.position - b.position || a.id - b.id);
  if (viewId !== null && !views.some((v) => v.id === viewId)) return astro.redirect(`/project/${projectId}/templates?view=all`, 303);

  // Deleting the view on screen returns to All.
  const deletingShown = viewId !== null && idField((await postedForm(astro.request)) ?? new FormData(), 'id') === viewId;
  const deleted = await runDelete(astro, {
    path: (id) => (views.some((v) => v.id === id) ? `${base}/views/${id}` : null),
    done: deletingShown ? `/project/${projectId}/templates?view=all&views=edit` : editor, flash: 'view_deleted',
    name: (id) => views.find((v) => v.id === id)?.title ?? '',
  });
  if (deleted) return deleted;

  const viewForm = await runForm(astro, {
    name: 'view_save',
    initial: { id: -1, title: '' },
    read: (form) => ({ id: Number.parseInt(textField(form, 'id'), 10) || -1, title: textField(form, 'title') }),
    // A new row has a temporary negative id until saved: it is created, the others updated.
    toBody: (values) => values.id < 0 ? { title: values.title, position: views.length } : { id: values.id, title: values.title },
    schema: viewInputSchema,
    check: (body): Record<string, string> => (body.title?.trim() ? {} : { title: titleRequired }),
    call: (body) => (body.id === undefined ? { method: 'POST', path: `${base}/views` } : { method: 'PUT', path: `${base}/views/${body.id}` }),
    done: (_res, body) => ({ path: editor, flash: 'view_saved', name: body.title ?? '' }),
  });
  if (viewForm.redirect) return viewForm.redirect;

  const moved = await runForm(astro, {
    name: 'view_move',
    initial: { id: 0, dir: '' },
    read: (form) => ({ id: Number(textField(form, 'id')), dir: textField(form, 'dir') }),
    toBody: ({ id, dir }) => Object.fromEntries(reorder(views, id, dir).map((v, i) => [String(v.id), i])),
    schema: viewPositionsSchema,
    call: () => ({ method: 'POST', path: `${base}/views/positions` }),
    done: () => ({ path: editor }),
  });
  if (moved.redirect) return moved.redirect;

  const bulk = await runBulkBar(astro, projectId, bulkActions);
  if (bulk instanceof Response) return bulk;

  const openParam = astro.url.searchParams.get('open') ?? '';
  const openId = /^\d{1,10}$/.test(openParam) ? Number(openParam) : null;
  const q = (astro.url.searchParams.get('q') ?? '').trim().slice(0, 200);
  const after = astro.url.searchParams.get('after') ?? '';
  const query = new URLSearchParams({ limit: String(TEMPLATE_PAGE_SIZE) });
  if (viewId !== null) query.set('view_id', String(viewId));
  if (q) query.set('q', q);
  if (/^[\w-]{1,600}$/.test(after)) query.set('after', after);
  const [page, apps, openTasks] = await Promise.all([
    templatePage(astro, base, query),
    apiGetOr<AppItem[]>(astro, '/api/apps', []),
    openId === null ? Promise.resolve([]) : apiGetOr<Task[]>(astro, `${base}/templates/${openId}/tasks/last?limit=5`, []),
  ]);
  return {
    views, templates: page.items, apps, openTasks, openId, viewForm: moved.submitted ? { ...viewForm, error: moved.error } : viewForm,
    q, nextCursor: page.nextCursor, paged: query.has('after'), bulk,
    confirmNames: bulk.confirmIds.length ? await confirmNames(astro, projectId, bulk.confirmIds, page.items) : new Map(),
  };
}

/** One page of templates; a cursor the API does not take (hand-edited, stale) shows the first page. */
async function templatePage(astro: AstroLike, base: string, query: URLSearchParams) {
  try {
    return await apiGetCursorPage<TemplateItem>(astro, `${base}/templates?${query}`);
  } catch (err) {
    if (!(err instanceof RunnerApiError && err.status === 400 && query.has('after'))) throw err;
    query.delete('after');
    return apiGetCursorPage<TemplateItem>(astro, `${base}/templates?${query}`);
  }
}

/** The views with `id` moved one place up or down. */
export function reorder<V extends { id: number }>(views: V[], id: number, dir: string): V[] {
  const list = [...views];
  const from = list.findIndex((v) => v.id === id);
  const to = dir === 'up' ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= list.length) return list;
  [list[from], list[to]] = [list[to]!, list[from]!];
  return list;
}
