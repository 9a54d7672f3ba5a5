import { memo, useEffect, useLayoutEffect, useReducer, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TaskOutputLine } from '../console/types.ts';
import {
  FETCH_SETTLE_MS, FIRST_VIEW_ROWS, LOG_ROW_PX, MAX_SCROLL_PX, OVERSCAN_ROWS, lineTime, scrollPosition, scrollTopForLine,
} from './task-log-model.ts';
import { useLogLines } from './task-log-lines.ts';
import AnsiLine from './AnsiLine.tsx';

interface Props {
  apiBase: string;
  initialLines: TaskOutputLine[];
  /** the log's line count when the page was rendered */
  initialTotal: number;
  /** start at the end and stay there while lines arrive (a running task) */
  followTail: boolean;
  /** changes whenever the running log may have grown */
  liveTick: number;
  /** told the log's line count whenever it changes */
  onTotal?: (total: number) => void;
  label: string;
  emptyText: string;
  jumpText: string;
  /** kept mounted but not shown while another tab of the dialog is open */
  hidden?: boolean;
  /** show this 1-based line near the middle of the screen and mark it; `seq` repeats a jump */
  jump?: { line: number; seq: number } | null;
}

/**
 * A task log of any length as numbered fixed-height rows, windowed by @tanstack/react-virtual:
 * only the rows near the screen exist, and only their lines are fetched, so End, Home, a
 * scrollbar drag or a jump anywhere costs one or two requests. Browsers cap an element's
 * height, so the scroll area stops at MAX_SCROLL_PX and the virtualizer is told the position in
 * lines (scrollPosition), not the raw scroll top. Following the tail ends when the reader
 * scrolls up and resumes at the bottom.
 */
export default function LogView({ apiBase, initialLines, initialTotal, followTail, liveTick, onTotal, label, emptyText, jumpText, hidden = false, jump = null }: Props) {
  const log = useLogLines(apiBase, initialLines, initialTotal);
  const scroller = useRef<HTMLDivElement>(null);
  const follow = useRef(followTail);
  /** The box's scrollTop at its last scroll event, to tell a move up from a box that shrank. */
  const lastTop = useRef(0);
  // The jump button works only with scripts, so the server render leaves it out.
  const [hydrated, setHydrated] = useState(false);
  const totalNow = useRef(log.total);
  totalNow.current = log.total;
  // The clamped scroll top of the last position told to the virtualizer, and how to tell it now.
  const top = useRef(0);
  const report = useRef(() => {});
  const [atEnd, setAtEnd] = useState(true);
  // Where the scroll area is shorter than the log, rows move against the scroll between the
  // virtualizer's range changes: each scroll renders then.
  const [, rendered] = useReducer((n: number) => n + 1, 0);
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    // Until hydrated (and on the server) only the first screen: the virtualizer keeps two numbers
    // per line, which a server render of a 1,000,000-line log has no use for.
    count: hydrated ? log.total : Math.min(log.total, FIRST_VIEW_ROWS + OVERSCAN_ROWS + 1),
    estimateSize: () => LOG_ROW_PX,
    overscan: OVERSCAN_ROWS,
    getScrollElement: () => scroller.current,
    initialRect: { width: 0, height: FIRST_VIEW_ROWS * LOG_ROW_PX },
    // renders follow React's own scheduling: a scroll told from a layout effect must not flush
    useFlushSync: false,
    observeElementOffset: (instance, notify) => {
      const el = instance.scrollElement;
      if (!el) return undefined;
      report.current = () => {
        const position = scrollPosition(el.scrollTop, el.clientHeight, totalNow.current);
        top.current = position.top;
        notify(position.topLine * LOG_ROW_PX, false);
        setAtEnd(position.top + el.clientHeight >= Math.min(totalNow.current * LOG_ROW_PX, MAX_SCROLL_PX) - LOG_ROW_PX * 3);
        if (totalNow.current * LOG_ROW_PX > MAX_SCROLL_PX) rendered();
      };
      report.current();
      el.addEventListener('scroll', report.current, { passive: true });
      const listener = report.current;
      return () => el.removeEventListener('scroll', listener);
    },
    // Positions are set here (End, Home, a jump), never by the virtualizer.
    scrollToFn: () => undefined,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  const { want, refreshTail } = log;

  useEffect(() => {
    const timer = setTimeout(() => want(first, last), FETCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [want, first, last]);

  useEffect(() => {
    if (liveTick) refreshTail();
  }, [liveTick, refreshTail]);

  useEffect(() => onTotal?.(log.total), [log.total]);

  // Before the first paint: the server's first screen of rows is cut to the box at once.
  useLayoutEffect(() => {
    setHydrated(true);
    const el = scroller.current;
    if (!el) return;
    // The dialog's header and buttons change height as a task ends; a view that follows the tail stays on it.
    const observer = new ResizeObserver(() => {
      if (follow.current) el.scrollTop = el.scrollHeight;
      report.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (follow.current && el) el.scrollTop = el.scrollHeight;
    report.current();
  }, [log.total, hydrated]);

  const onScroll = () => {
    const el = scroller.current!;
    // Only a move up leaves the tail. A box that shrank (a smaller window, the dialog's header
    // growing) leaves the view short of the tail without moving it, and its scroll event can come
    // before the resize observer that would bring the view back.
    if (el.scrollHeight - el.scrollTop - el.clientHeight < LOG_ROW_PX * 3) follow.current = true;
    else if (el.scrollTop < lastTop.current) follow.current = false;
    lastTop.current = el.scrollTop;
  };

  useEffect(() => {
    const el = scroller.current;
    if (!jump || !el) return;
    follow.current = false;
    el.scrollTop = scrollTopForLine(jump.line - 1, el.clientHeight, log.total);
    report.current();
    // a new jump (seq) moves the view; the log growing meanwhile does not
  }, [jump?.seq]);

  const scrollTo = (end: boolean) => {
    const el = scroller.current!;
    el.scrollTop = end ? el.scrollHeight : 0;
    onScroll();
    // The scroll event comes a frame or more later; the lines are asked for now.
    report.current();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'End' && event.key !== 'Home') return;
    event.preventDefault();
    scrollTo(event.key === 'End');
  };

  const contentHeight = Math.min(log.total * LOG_ROW_PX, MAX_SCROLL_PX);
  // Line i sits at top + (its start − the virtualizer's offset): rows stay LOG_ROW_PX apart
  // even where the scroll area is shorter than the log.
  const windowTop = items.length ? top.current + items[0]!.start - (virtualizer.scrollOffset ?? 0) : 0;
  return (
    <div className="log-frame" hidden={hidden}>
      <div className="log" ref={scroller} onScroll={onScroll} onKeyDown={onKeyDown} tabIndex={0} role="log" aria-label={label}>
        <div className="log-rows" style={{ height: contentHeight }}>
          {/* One positioned block of rows in normal flow: a transform per row made the browser
              paint and layerize each row on its own, frames of tens of ms at every scroll. */}
          <div className="log-window" style={{ transform: `translateY(${windowTop}px)` }}>
            {items.map((item) => <LogRow key={item.index} index={item.index} line={log.line(item.index)} marked={jump?.line === item.index + 1} />)}
          </div>
        </div>
        {log.total === 0 ? <p className="empty">{emptyText}</p> : null}
      </div>
      {hydrated && !atEnd ? <button type="button" className="log-jump secondary" onClick={() => scrollTo(true)}>↓ {jumpText}</button> : null}
    </div>
  );
}

/** One numbered row; unchanged rows (same line, same mark) are not rendered again on a scroll. */
const LogRow = memo(function LogRow({ index, line, marked }: { index: number; line: TaskOutputLine | undefined; marked: boolean }) {
  return (
    <div className={marked ? 'log-row log-row-marked' : 'log-row'}>
      <span className="log-no">{index + 1}</span>
      <span className="log-time">{line ? lineTime(line.time) : ''}</span>
      <span>{line ? <AnsiLine text={line.output} /> : null}</span>
    </div>
  );
});
