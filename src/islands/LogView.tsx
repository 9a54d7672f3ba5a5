import { memo, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { TaskOutputLine } from '../console/types.ts';
import { FETCH_SETTLE_MS, FIRST_VIEW_ROWS, LOG_ROW_PX, lineTime, scrollTopForLine, visibleWindow } from './task-log-model.ts';
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
 * A task log of any length as numbered fixed-height rows: only the rows on screen exist, and
 * only their lines are fetched, so End, Home, a scrollbar drag or a jump anywhere costs one or
 * two requests. Following the tail ends when the reader scrolls up and resumes at the bottom.
 */
export default function LogView({ apiBase, initialLines, initialTotal, followTail, liveTick, onTotal, label, emptyText, jumpText, hidden = false, jump = null }: Props) {
  const log = useLogLines(apiBase, initialLines, initialTotal);
  const scroller = useRef<HTMLDivElement>(null);
  const follow = useRef(followTail);
  const [view, setView] = useState({ top: 0, height: FIRST_VIEW_ROWS * LOG_ROW_PX });
  // The jump button works only with scripts, so the server render leaves it out.
  const [hydrated, setHydrated] = useState(false);
  const win = visibleWindow(view.top, view.height, log.total);
  const { want, refreshTail } = log;

  useEffect(() => {
    const timer = setTimeout(() => want(win.first, win.last), FETCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [want, win.first, win.last]);

  useEffect(() => {
    if (liveTick) refreshTail();
  }, [liveTick, refreshTail]);

  useEffect(() => onTotal?.(log.total), [log.total]);

  // Measured before the first paint: the server's first screen of rows is cut to the box at once.
  useLayoutEffect(() => {
    setHydrated(true);
    const el = scroller.current;
    if (!el) return;
    const measure = () => {
      // The dialog's header and buttons change height as a task ends; a view that follows the tail stays on it.
      if (follow.current) el.scrollTop = el.scrollHeight;
      setView({ top: el.scrollTop, height: el.clientHeight });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (follow.current && el) el.scrollTop = el.scrollHeight;
  }, [log.total]);

  const onScroll = () => {
    const el = scroller.current!;
    follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < LOG_ROW_PX * 3;
    setView({ top: el.scrollTop, height: el.clientHeight });
  };

  useEffect(() => {
    const el = scroller.current;
    if (!jump || !el) return;
    follow.current = false;
    el.scrollTop = scrollTopForLine(jump.line - 1, el.clientHeight, log.total);
    onScroll();
    // a new jump (seq) moves the view; the log growing meanwhile does not
  }, [jump?.seq]);

  const scrollTo = (end: boolean) => {
    const el = scroller.current!;
    el.scrollTop = end ? el.scrollHeight : 0;
    // The scroll event comes a frame or more later; the lines are asked for now.
    onScroll();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'End' && event.key !== 'Home') return;
    event.preventDefault();
    scrollTo(event.key === 'End');
  };

  const rows = [];
  for (let index = win.first; index <= win.last; index++) {
    rows.push(<LogRow key={index} index={index} line={log.line(index)} marked={jump?.line === index + 1} />);
  }
  const atEnd = view.top + view.height >= win.contentHeight - LOG_ROW_PX * 3;
  return (
    <div className="log-frame" hidden={hidden}>
      <div className="log" ref={scroller} onScroll={onScroll} onKeyDown={onKeyDown} tabIndex={0} role="log" aria-label={label}>
        <div className="log-rows" style={{ height: win.contentHeight }}>
          {/* One positioned block of rows in normal flow: a transform per row made the browser
              paint and layerize each row on its own, frames of tens of ms at every scroll. */}
          <div className="log-window" style={{ transform: `translateY(${win.originPx + win.first * LOG_ROW_PX}px)` }}>{rows}</div>
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
