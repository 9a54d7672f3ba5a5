export const PAGE_SIZE = 20;

export interface Page<T> { items: T[]; page: number; pages: number }

/**
 * One page (1-based, from `?page=`) of a list; out-of-range pages clamp to the nearest page.
 * @example paginate(tasks, url.searchParams.get('page'))
 */
export function paginate<T>(all: T[], pageParam: string | null, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(all.length / size));
  const page = Math.min(pages, Math.max(1, Number.parseInt(pageParam ?? '1', 10) || 1));
  return { items: all.slice((page - 1) * size, page * size), page, pages };
}

/**
 * The current URL with one query parameter changed (or removed when value is null). A flash is
 * said once, on the page a change lands on: links made from that page do not carry it on.
 */
export function withParam(url: URL, name: string, value: string | null): string {
  const next = new URL(url);
  next.searchParams.delete('flash');
  if (value === null) next.searchParams.delete(name);
  else next.searchParams.set(name, value);
  return next.pathname + next.search;
}
