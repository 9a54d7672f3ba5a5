import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { SafeHtml } from '../console/html.ts';
import { durationUnits } from '../components/time-markup.ts';
import { taskCellsMarkup } from '../components/task-row.ts';
import { auditCellsMarkup } from '../components/audit-row.ts';
import type { AuditRow } from '../console/audit-screen.ts';
import type { Task } from '../console/types.ts';

/** Rows asked of the API per fetch while scrolling. */
export const SCROLL_PAGE = 100;
/** Rows kept rendered beyond each edge of the box. */
const OVERSCAN = 8;
/** Fetch the next page when the last rendered row is this close to the loaded end. */
const FETCH_AHEAD = 20;

type Row = { id: number };
/** What is listed: the project history's tasks or the audit trail's rows. */
export type ScrollKind = 'tasks' | 'audit';

export interface ScrollListProps {
  kind: ScrollKind;
  /** the API list the server read the first rows from, `/api/project/3/tasks` */
  path: string;
  /** the filter as that API's parameters, without cursor or page size */
  filterQuery: string;
  /** the rows the server rendered, newest first */
  initial: Row[];
  /** the cursor of the next older page (the API's own), null when the server's rows are all */
  cursor: string | null;
  lang: string;
  label: string;
  columns: { label: string; low: boolean }[];
  /** tasks: the template's name after the number; audit: a project column */
  wide: boolean;
  /** each task status's chip, made on the server (the icon sprite's address is the server's) */
  chips?: Record<string, string>;
  /** the cells' messages (`{{name}}` placeholders kept) */
  m: Record<string, string>;
  /** the state line's words */
  states: { loading: string; failed: string; end: string; retry: string };
}

/** One older page from the API: its rows and the next cursor. */
async function fetchOlder(kind: ScrollKind, path: string, filterQuery: string, cursor: string, last: Row): Promise<{ rows: Row[]; cursor: string | null }> {
  const query = new URLSearchParams(filterQuery);
  query.set(kind === 'tasks' ? 'before_id' : 'before', cursor);
  query.set('limit', String(SCROLL_PAGE));
  const res = await fetch(`${path}?${query}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(String(res.status));
  if (kind === 'audit') {
    const page = (await res.json()) as { rows: AuditRow[]; next: number | null };
    return { rows: page.rows, cursor: page.next === null || page.rows.length === 0 ? null : String(page.next) };
  }
  const rows = (await res.json()) as Task[];
  const more = res.headers.get('x-has-next') === 'true' && rows.length > 0;
  return { rows, cursor: more ? String(rows.at(-1)?.id ?? last.id) : null };
}

/**
 * A long list (the project history, the audit trail) as one continuous table (issue 46 item 5):
 * the server's first rows, then older cursor pages of the same API as the person scrolls, only
 * the rows near the screen in the DOM (`@tanstack/react-virtual`), each row's cells from the same
 * module as the paged table. aria-rowcount is -1 until the oldest row is loaded; each row has its
 * aria-rowindex. Mounted only by the list's `?view=all` page.
 */
export default function ScrollList(props: ScrollListProps) {
  const { kind, path, filterQuery, lang, label, columns, wide, chips = {}, m, states } = props;
  const [items, setItems] = useState(props.initial);
  const [cursor, setCursor] = useState(props.cursor);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const box = useRef<HTMLDivElement>(null);

  const cells = useMemo(() => {
    const t = (key: string, vars?: Record<string, string | number>) =>
      (m[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars?.[name] ?? ''));
    if (kind === 'audit') return (row: Row) => auditCellsMarkup(row as AuditRow, { t, lang, withProject: wide });
    const here = typeof location === 'undefined' ? null : new URL(location.href);
    const ctx = {
      t, lang, units: durationUnits(t), withTemplate: wide,
      chip: (status: string) => new SafeHtml(chips[status] ?? chips[''] ?? ''),
      taskHref: (id: number) => {
        if (!here) return `?t=${id}`;
        here.searchParams.set('t', String(id));
        return here.pathname + here.search;
      },
    };
    return (row: Row) => taskCellsMarkup(row as Task, ctx);
  }, [kind, m, lang, wide, chips]);

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
    if (!last || cursor === null) return;
    setState('loading');
    try {
      const page = await fetchOlder(kind, path, filterQuery, cursor, last);
      setItems((now) => (now.at(-1)?.id === last.id ? [...now, ...page.rows] : now));
      setCursor(page.cursor);
      setState('idle');
    } catch {
      setState('failed');
    }
  }, [items, cursor, kind, path, filterQuery]);

  useEffect(() => {
    if (cursor !== null && state === 'idle' && lastShown >= items.length - FETCH_AHEAD) void loadOlder();
  }, [cursor, state, lastShown, items.length, loadOlder]);

  // with the list here, the server's page links below it are for pages without JavaScript only
  useEffect(() => { document.getElementById('scroll-list-pager')?.setAttribute('hidden', ''); }, []);

  const top = rows[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  const done = cursor === null;
  const status = state === 'loading' ? states.loading : state === 'failed' ? states.failed : done ? states.end : '';
  return (
    <div className="scroll-list">
      <div className="table-box scroll-list-box" ref={box} role="region" aria-label={label} tabIndex={0}>
        <table className="data-table" aria-rowcount={done ? items.length + 1 : -1}>
          <thead><tr aria-rowindex={1}>{columns.map((c) => <th key={c.label} scope="col" className={c.low ? 'col-low' : undefined}>{c.label}</th>)}</tr></thead>
          <tbody>
            {top > 0 && <tr className="scroll-list-spacer" aria-hidden="true" style={{ height: top }}><td colSpan={columns.length} /></tr>}
            {rows.map((v) => {
              const row = items[v.index]!;
              return <tr key={row.id} data-row={row.id} data-task={kind === 'tasks' ? row.id : undefined} data-index={v.index} aria-rowindex={v.index + 2}
                ref={virtualizer.measureElement} dangerouslySetInnerHTML={{ __html: cells(row).value }} />;
            })}
            {bottom > 0 && <tr className="scroll-list-spacer" aria-hidden="true" style={{ height: bottom }}><td colSpan={columns.length} /></tr>}
          </tbody>
        </table>
      </div>
      <p className="scroll-list-state" role="status">
        {status}{' '}
        {state === 'failed' && <button type="button" className="btn btn-outline" onClick={() => void loadOlder()}>{states.retry}</button>}
      </p>
    </div>
  );
}
