import type { AstroGlobal } from 'astro';
import { apiGetCursorPage, apiGetPage } from './runner-api.ts';
import { taskPageQuery, type TaskFilter } from './task-filter.ts';
import { PAGE_SIZE, type Page } from './paging.ts';
import type { Task } from './types.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

/**
 * One page (1-based, from `?page=`) of the project's tasks, newest first, fetched as just that
 * page from the API; a page past the end shows the last one.
 * @example const { items, page, pages } = await loadTaskPage(Astro, 3, Astro.url.searchParams.get('page'));
 */
export async function loadTaskPage(astro: AstroLike, projectId: number, pageParam: string | null): Promise<Page<Task>> {
  const requested = Math.max(1, Number.parseInt(pageParam ?? '1', 10) || 1);
  const fetchPage = (page: number) => apiGetPage<Task>(astro, `/api/project/${projectId}/tasks?offset=${(page - 1) * PAGE_SIZE}&limit=${PAGE_SIZE}`);
  let result = await fetchPage(requested);
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  if (requested > pages) result = await fetchPage(pages);
  return { items: result.items, page: Math.min(requested, pages), pages };
}

export interface TaskCursorPage { items: Task[]; hasOlder: boolean; hasNewer: boolean }

/**
 * One cursor page of the project's tasks, newest first, for the filter and cursor in the URL.
 * @example const page = await loadTaskCursorPage(Astro, 3, readTaskFilter(Astro.url), Astro.url);
 */
export async function loadTaskCursorPage(astro: AstroLike, projectId: number, filter: TaskFilter, url: URL): Promise<TaskCursorPage> {
  return apiGetCursorPage<Task>(astro, `/api/project/${projectId}/tasks?${taskPageQuery(filter, url)}`);
}
