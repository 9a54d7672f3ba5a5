import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { SafeHtml } from '../console/html.ts';
import { durationUnits } from '../components/cell-markup.ts';
import { taskCellsMarkup, type TaskRowContext } from '../components/task-row.ts';
import type { Task } from '../console/types.ts';

/** Rows asked of the API per fetch while scrolling. */
export const SCROLL_PAGE = 100;
/** Rows kept rendered beyond each edge of the box. */
const OVERSCAN = 8;
/** Fetch the next page when the last rendered row is this close to the loaded end. */
const FETCH_AHEAD = 20;

export interface TaskScrollProps {
  projectId: number;
  /** the filter as API parameters (`status=error&…`), without cursor or page size */
  filterQuery: string;
  /** the rows the server rendered, newest first */
  initial: Task[];
  hasOlder: boolean;
  lang: string;
  withTemplate: boolean;
  label: string;
  columns: { label: string; low: boolean }[];
  /** each status's chip, made on the server (the icon sprite's address is the server's) */
  chips: Record<string, string>;
  /** the row messages (task-row.ts TASK_ROW_MESSAGES, `{{name}}` placeholders kept) and the list's own */
  m: Record<string, string>;
}

/**
 * The project history as one continuous list (issue 46 item 5): the server's first rows, then
 * older cursor pages of the same API as the person scrolls, only the rows near the screen in the
 * DOM (`@tanstack/react-virtual`), each row's cells from the same module as the paged table.
 * A table with aria-rowcount (-1 until the oldest task is loaded) and aria-rowindex per row.
 */
export default function TaskScroll(props: TaskScrollProps) {
  const { projectId, filterQuery, initial, lang, withTemplate, label, columns, chips, m } = props;
  const [items, setItems] = useState(initial);
  const [hasOlder, setHasOlder] = useState(props.hasOlder);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const box = useRef<HTMLDivElement>(null);

  const row = useMemo<TaskRowContext>(() => {
    const t = (key: string, vars?: Record<string, string | number>) =>
      (m[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars?.[name] ?? ''));
    const here = typeof location === 'undefined' ? null : new URL(location.href);
    return {
      t, lang, units: durationUnits(t), withTemplate,
      chip: (status) => new SafeHtml(chips[status] ?? chips[''] ?? ''),
      taskHref: (id) => {
        if (!here) return `?t=${id}`;
        here.searchParams.set('t', String(id));
        return here.pathname + here.search;
      },
    };
  }, [m, lang, withTemplate, chips]);

  const virtualizer = useVirtualizer<HTMLDivElement, HTMLTableRowElement>({
    count: items.length,
    getScrollElement: () => box.current,
    estimateSize: () => 52,
    overscan: OVERSCAN,
    getItemKey: (index) => items[index]!.id,
    // the server render shows the first screen's rows too
    initialRect: { width: 1280, height: 800 },
  });
  const rows = virtualizer.getVirtualItems();
  const lastShown = rows.at(-1)?.index ?? 0;

  const loadOlder = useCallback(async () => {
    const last = items.at(-1);
    if (!last) return;
    setState('loading');
    try {
      const query = new URLSearchParams(filterQuery);
      query.set('before_id', String(last.id));
      query.set('limit', String(SCROLL_PAGE));
      const res = await fetch(`/api/project/${projectId}/tasks?${query}`, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(String(res.status));
      const older = (await res.json()) as Task[];
      setItems((now) => (now.at(-1)?.id === last.id ? [...now, ...older] : now));
      setHasOlder(res.headers.get('x-has-next') === 'true' && older.length > 0);
      setState('idle');
    } catch {
      setState('failed');
    }
  }, [items, filterQuery, projectId]);

  useEffect(() => {
    if (hasOlder && state === 'idle' && lastShown >= items.length - FETCH_AHEAD) void loadOlder();
  }, [hasOlder, state, lastShown, items.length, loadOlder]);

  // with the list here, the server's page links below it are for pages without JavaScript only
  useEffect(() => { document.getElementById('scroll-list-pager')?.setAttribute('hidden', ''); }, []);

  const top = rows[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  const status = state === 'loading' ? m['history.scrollLoading'] : state === 'failed' ? m['history.scrollFailed'] : !hasOlder ? m['history.scrollEnd'] : '';
  return (
    <div className="scroll-list">
      <div className="table-box scroll-list-box" ref={box} role="region" aria-label={label} tabIndex={0}>
        <table className="data-table" aria-rowcount={hasOlder ? -1 : items.length + 1}>
          <thead><tr aria-rowindex={1}>{columns.map((c) => <th key={c.label} scope="col" className={c.low ? 'col-low' : undefined}>{c.label}</th>)}</tr></thead>
          <tbody>
            {top > 0 && <tr className="scroll-list-spacer" aria-hidden="true" style={{ height: top }}><td colSpan={columns.length} /></tr>}
            {rows.map((v) => {
              const task = items[v.index]!;
              return <tr key={task.id} data-task={task.id} data-index={v.index} aria-rowindex={v.index + 2} ref={virtualizer.measureElement}
                dangerouslySetInnerHTML={{ __html: taskCellsMarkup(task, row).value }} />;
            })}
            {bottom > 0 && <tr className="scroll-list-spacer" aria-hidden="true" style={{ height: bottom }}><td colSpan={columns.length} /></tr>}
          </tbody>
        </table>
      </div>
      <p className="scroll-list-state" role="status">
        {status}{' '}
        {state === 'failed' && <button type="button" className="btn btn-outline" onClick={() => void loadOlder()}>{m['history.scrollRetry']}</button>}
      </p>
    </div>
  );
}
