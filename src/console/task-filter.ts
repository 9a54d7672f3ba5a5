// The history's filter and cursor, read from the page's URL (`status`, `user_id`, `from`, `to`
// as the filter form sends them; `before` / `after` from the pager) and turned into the API's
// cursor query. Values the form cannot produce are dropped, so a hand-edited link still renders.
import { TASK_STATUSES } from '../server/domain/tasks/task-status.ts';
import { PAGE_SIZE } from './paging.ts';

export interface TaskFilter {
  status: string;
  user_id: string;
  /** a day, `YYYY-MM-DD` (the first day shown) */
  from: string;
  /** a day, `YYYY-MM-DD` (the last day shown, whole) */
  to: string;
}

export const FILTER_NAMES = ['status', 'user_id', 'from', 'to'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filter in the URL; unknown or malformed values read as "any". */
export function readTaskFilter(url: URL): TaskFilter {
  const get = (name: string) => url.searchParams.get(name)?.trim() ?? '';
  const day = (text: string) => (DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ? text : '');
  const status = get('status');
  return {
    status: (TASK_STATUSES as readonly string[]).includes(status) ? status : '',
    user_id: /^\d{1,10}$/.test(get('user_id')) ? get('user_id') : '',
    from: day(get('from')),
    to: day(get('to')),
  };
}

export function filterIsSet(filter: TaskFilter): boolean {
  return FILTER_NAMES.some((name) => filter[name] !== '');
}

/**
 * The API query of one page: the filter, a cursor (`before` / `after` in the URL; neither: the
 * newest page) and the page size.
 * @example taskPageQuery(readTaskFilter(url), url) // 'limit=20&before_id=0&status=error'
 */
export function taskPageQuery(filter: TaskFilter, url: URL): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  const after = url.searchParams.get('after');
  const before = url.searchParams.get('before');
  if (after !== null && /^\d{1,15}$/.test(after)) query.set('after_id', after);
  else query.set('before_id', before !== null && /^\d{1,15}$/.test(before) ? before : '0');
  for (const [name, value] of taskFilterQuery(filter)) query.set(name, value);
  return query.toString();
}

/**
 * The filter alone as the API's parameters (days as instants, `to` taking its whole day): the
 * continuous list adds its own cursor and page size.
 * @example String(taskFilterQuery({ status: 'error', user_id: '', from: '', to: '' })) // 'status=error'
 */
export function taskFilterQuery(filter: TaskFilter): URLSearchParams {
  const query = new URLSearchParams();
  if (filter.status) query.set('status', filter.status);
  if (filter.user_id) query.set('user_id', filter.user_id);
  if (filter.from) query.set('from', `${filter.from}T00:00:00Z`);
  if (filter.to) query.set('to', new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000).toISOString());
  return query;
}
