import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { escapeHtml, SafeHtml } from '../console/html.ts';
import { durationUnits } from '../components/time-markup.ts';
import { taskCellsMarkup } from '../components/task-row.ts';
import { auditCellsMarkup } from '../components/audit-row.ts';
import { latestTasksMarkup, linkFrom, templateCellsMarkup, type TemplateRowContext } from '../components/template-row.ts';
import type { AuditRow } from '../console/audit-screen.ts';
import type { TemplateItem } from '../console/template-list.ts';
import type { Task } from '../console/types.ts';

/** Rows asked of the API per fetch while scrolling. */
export const SCROLL_PAGE = 100;
/** Rows kept rendered beyond each edge of the box. */
const OVERSCAN = 8;
/** Fetch the next page when the last rendered row is this close to the loaded end. */
const FETCH_AHEAD = 20;
/** A row's height until it is measured. */
const ESTIMATE = 52;

type Row = { id: number };
/** What is listed: the project history's tasks, the audit trail's rows or a project's templates. */
export type ScrollKind = 'tasks' | 'audit' | 'templates';

/** What the template list adds: rows chosen for its bulk bar, rows that expand to their latest tasks. */
export interface TemplateScroll {
  /** the page's path and query, which the rows' links keep */
  here: string;
  projectId: number;
  /** each app's badge and title, made on the server (the logos stay there) */
  apps: Record<string, string>;
  icons: { chevron: string; running: string };
  /** the row the address expands (`?open=`) with its latest tasks */
  opened: { id: number; tasks: Task[] } | null;
  /** the select-all box's label; null when there is no bulk bar */
  chooseAll: string | null;
  /** the expanded row's words while its tasks load or when they cannot */
  detail: { loading: string; failed: string };
}

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
  templates?: TemplateScroll;
}

/** The bulk bar's form: the boxes and the chosen ids belong to it wherever they sit. */
const BULK_FORM = 'tpl-bulk';

/** A virtual row: a listed row, or the expanded part below a template's row. */
interface Entry { row: Row; detail?: true }

/** One older page from the API: its rows and the next cursor. */
async function fetchOlder(kind: ScrollKind, path: string, filterQuery: string, cursor: string, last: Row): Promise<{ rows: Row[]; cursor: string | null }> {
  const query = new URLSearchParams(filterQuery);
  query.set(({ tasks: 'before_id', audit: 'before', templates: 'after' } as const)[kind], cursor);
  query.set('limit', String(SCROLL_PAGE));
  const res = await fetch(`${path}?${query}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(String(res.status));
  if (kind === 'templates') {
    const rows = (await res.json()) as Row[];
    return { rows, cursor: rows.length > 0 ? res.headers.get('x-next-cursor') : null };
  }
  if (kind === 'audit') {
    const page = (await res.json()) as { rows: AuditRow[]; next: number | null };
    return { rows: page.rows, cursor: page.next === null || page.rows.length === 0 ? null : String(page.next) };
  }
  const rows = (await res.json()) as Task[];
  const more = res.headers.get('x-has-next') === 'true' && rows.length > 0;
  return { rows, cursor: more ? String(rows.at(-1)?.id ?? last.id) : null };
}

/** A template's latest tasks for its expanded row. */
async function fetchLatest(path: string, id: number): Promise<Task[]> {
  const res = await fetch(`${path}/${id}/tasks/last?limit=5`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(String(res.status));
  return (await res.json()) as Task[];
}

/** The template rows' cells made in the browser, from the pieces the server made. */
function templateContext(tp: TemplateScroll, t: TemplateRowContext['t'], lang: string, chip: TemplateRowContext['chip']): TemplateRowContext {
  return {
    t, lang, chip, projectId: tp.projectId, select: tp.chooseAll !== null, link: linkFrom(tp.here),
    app: (id) => new SafeHtml(tp.apps[id] ?? escapeHtml(id)),
    chevron: new SafeHtml(tp.icons.chevron), running: new SafeHtml(tp.icons.running),
  };
}

/**
 * A long list (the project history, the audit trail, a project's templates) as one continuous table (issue 46 item 5):
 * the server's first rows, then older cursor pages of the same API as the person scrolls, only
 * the rows near the screen in the DOM (`@tanstack/react-virtual`), each row's cells from the same
 * module as the paged table. aria-rowcount is -1 until the oldest row is loaded; each row has its
 * aria-rowindex. Mounted only by the list's continuous mode. Templates: the chosen ids are kept
 * here (a hidden field of the bulk bar's form), so they survive their rows scrolling away; a
 * row's expander shows its latest tasks below it without leaving the page.
 */
export default function ScrollList(props: ScrollListProps) {
  const { kind, path, filterQuery, lang, label, wide, chips = {}, m, states, templates: tp } = props;
  const choosing = Boolean(tp?.chooseAll);
  const [items, setItems] = useState(props.initial);
  const [cursor, setCursor] = useState(props.cursor);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const box = useRef<HTMLDivElement>(null);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set(tp?.opened ? [tp.opened.id] : []));
  const [latest, setLatest] = useState<ReadonlyMap<number, Task[] | 'failed'>>(new Map(tp?.opened ? [[tp.opened.id, tp.opened.tasks]] : []));
  /** the expander to focus again once its row is drawn anew */
  const refocus = useRef<number | null>(null);

  const cells = useMemo((): { row: (row: Row, expanded?: boolean) => SafeHtml; detail?: (tasks: Task[]) => SafeHtml } => {
    const t = (key: string, vars?: Record<string, string | number>) =>
      (m[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars?.[name] ?? ''));
    const chip = (status: string) => new SafeHtml(chips[status] ?? chips[''] ?? '');
    if (kind === 'audit') return { row: (row: Row) => auditCellsMarkup(row as AuditRow, { t, lang, withProject: wide }) };
    if (kind === 'templates' && tp) {
      const ctx = templateContext(tp, t, lang, chip);
      return {
        row: (row: Row, expanded = false) => templateCellsMarkup(row as TemplateItem, ctx, expanded),
        detail: (tasks: Task[]) => latestTasksMarkup(tasks, ctx),
      };
    }
    const here = typeof location === 'undefined' ? null : new URL(location.href);
    const ctx = {
      t, lang, units: durationUnits(t), withTemplate: wide,
      chip,
      taskHref: (id: number) => {
        if (!here) return `?t=${id}`;
        here.searchParams.set('t', String(id));
        return here.pathname + here.search;
      },
    };
    return { row: (row: Row) => taskCellsMarkup(row as Task, ctx) };
  }, [kind, m, lang, wide, chips, tp]);

  const entries = useMemo<Entry[]>(() => items.flatMap((row) => (open.has(row.id) ? [{ row }, { row, detail: true as const }] : [{ row }])), [items, open]);
  const columns = choosing ? [{ label: '', low: false }, ...props.columns] : props.columns;

  const virtualizer = useVirtualizer<HTMLDivElement, HTMLTableRowElement>({
    count: entries.length,
    getScrollElement: () => box.current,
    estimateSize: () => ESTIMATE,
    overscan: OVERSCAN,
    getItemKey: (index) => (entries[index]!.detail ? `d${entries[index]!.row.id}` : entries[index]!.row.id),
    // the server render shows all its rows (a page without JavaScript reads them all)
    initialRect: { width: 1280, height: Math.max(800, props.initial.length * ESTIMATE) },
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

  // the first render shows every row the server did; the box is measured before any fetch
  const [measured, setMeasured] = useState(false);
  useEffect(() => setMeasured(true), []);
  useEffect(() => {
    if (measured && cursor !== null && state === 'idle' && lastShown >= entries.length - FETCH_AHEAD) void loadOlder();
  }, [measured, cursor, state, lastShown, entries.length, loadOlder]);

  // a row's box shows whether its id is chosen, whenever the row is drawn (scrolled back, say)
  useLayoutEffect(() => {
    for (const input of box.current?.querySelectorAll<HTMLInputElement>('input[data-bulk-row]') ?? []) input.checked = chosen.has(Number(input.value));
    if (refocus.current !== null) box.current?.querySelector<HTMLElement>(`[data-expand="${refocus.current}"]`)?.focus();
    refocus.current = null;
  });
  // the bulk bar (layouts/templates/bulk-bar.ts) counts the chosen ids
  useEffect(() => { if (choosing) document.dispatchEvent(new Event('bulk:chosen')); }, [choosing, chosen]);

  const toggleOpen = useCallback((id: number) => {
    setOpen((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });
    if (Array.isArray(latest.get(id))) return;
    fetchLatest(path, id).then(
      (tasks) => setLatest((now) => new Map(now).set(id, tasks)),
      () => setLatest((now) => new Map(now).set(id, 'failed')),
    );
  }, [latest, path]);

  const choose = (ids: number[], on: boolean) => setChosen((now) => {
    const next = new Set(now);
    for (const id of ids) if (on) next.add(id); else next.delete(id);
    return next;
  });

  // the rows' own parts are markup: their clicks are read here
  const onClick = (event: MouseEvent<HTMLTableElement>) => {
    const target = event.target as Element;
    const expander = target.closest<HTMLElement>('[data-expand]');
    if (expander && !(event.ctrlKey || event.metaKey || event.shiftKey)) {
      event.preventDefault();
      refocus.current = Number(expander.dataset.expand);
      toggleOpen(refocus.current);
      return;
    }
    const pick = target.closest<HTMLInputElement>('input[data-bulk-row]');
    if (pick) choose([Number(pick.value)], pick.checked);
  };
  const allChosen = choosing && items.length > 0 && items.every((row) => chosen.has(row.id));

  const detailMarkup = (id: number) => {
    const tasks = latest.get(id);
    if (Array.isArray(tasks)) return cells.detail!(tasks).value;
    return `<p class="muted">${escapeHtml(tasks === 'failed' ? tp!.detail.failed : tp!.detail.loading)}</p>`;
  };

  // with the list here, the server's page links below it are for pages without JavaScript only
  useEffect(() => { document.getElementById('scroll-list-pager')?.setAttribute('hidden', ''); }, []);

  const top = rows[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  const done = cursor === null;
  const status = state === 'loading' ? states.loading : state === 'failed' ? states.failed : done ? states.end : '';
  return (
    <div className="scroll-list">
      <div className="table-box scroll-list-box" ref={box} role="region" aria-label={label} tabIndex={0}>
        <table className="data-table" aria-rowcount={done ? entries.length + 1 : -1} onClick={onClick}>
          <thead><tr aria-rowindex={1}>
            {choosing && <th scope="col" className="col-select">
              <input type="checkbox" name="all_on_page" form={BULK_FORM} data-choose-all aria-label={tp!.chooseAll!} checked={allChosen}
                ref={(input) => { if (input) input.indeterminate = !allChosen && chosen.size > 0; }}
                onChange={(event) => choose(items.map((row) => row.id), event.target.checked)} />
            </th>}
            {props.columns.map((c) => <th key={c.label} scope="col" className={c.low ? 'col-low' : undefined}>{c.label}</th>)}
          </tr></thead>
          <tbody>
            {top > 0 && <tr className="scroll-list-spacer" aria-hidden="true" style={{ height: top }}><td colSpan={columns.length} /></tr>}
            {rows.map((v) => {
              const { row, detail } = entries[v.index]!;
              if (detail) {
                return <tr key={v.key} className="expanded-row" data-index={v.index} aria-rowindex={v.index + 2} ref={virtualizer.measureElement}>
                  <td colSpan={columns.length} dangerouslySetInnerHTML={{ __html: detailMarkup(row.id) }} />
                </tr>;
              }
              return <tr key={v.key} data-row={row.id} data-task={kind === 'tasks' ? row.id : undefined} data-template={kind === 'templates' ? row.id : undefined}
                className={(row as Partial<TemplateItem>).disabled ? 'tpl-disabled' : undefined} data-index={v.index} aria-rowindex={v.index + 2}
                ref={virtualizer.measureElement} dangerouslySetInnerHTML={{ __html: cells.row(row, open.has(row.id)).value }} />;
            })}
            {bottom > 0 && <tr className="scroll-list-spacer" aria-hidden="true" style={{ height: bottom }}><td colSpan={columns.length} /></tr>}
          </tbody>
        </table>
      </div>
      {choosing && <input type="hidden" name="template_id" form={BULK_FORM} value={[...chosen].join('.')} data-bulk-chosen />}
      <p className="scroll-list-state" role="status">
        {status}{' '}
        {state === 'failed' && <button type="button" className="btn btn-outline" onClick={() => void loadOlder()}>{states.retry}</button>}
      </p>
    </div>
  );
}
