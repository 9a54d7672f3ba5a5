import { useState, type FormEvent } from 'react';
import { mdiChevronDown, mdiChevronUp, mdiMagnify } from '@mdi/js';
import SvgIcon from './SvgIcon.tsx';

/** Matches asked for per search. */
export const SEARCH_LIMIT = 200;

interface Match { line: number; output: string }

interface Props {
  apiBase: string;
  m: (key: string, vars?: Record<string, string | number>) => string;
  /** shows a line of the log (1-based) in the log view */
  onJump: (line: number) => void;
}

/**
 * Search in the task log over all its lines, on the server (`.../output/search`): the matching
 * lines with their numbers, next/previous, and a jump to each in the log view. The log view
 * shows only the rows on screen, so the browser's own find cannot do this.
 */
export default function LogSearch({ apiBase, m, onJump }: Props) {
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<Match[] | null>(null);
  const [more, setMore] = useState(false);
  const [current, setCurrent] = useState(-1);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const go = (index: number) => {
    if (!matches?.length) return;
    const next = (index + matches.length) % matches.length;
    setCurrent(next);
    onJump(matches[next]!.line);
  };

  const search = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = query.trim();
    if (!q) return;
    setBusy(true);
    try {
      const res = await fetch(`${apiBase}/output/search?q=${encodeURIComponent(q)}&limit=${SEARCH_LIMIT}`);
      if (!res.ok) {
        setMatches(null);
        setError(m('searchFailed', { status: res.status }));
        return;
      }
      const body = (await res.json()) as { matches: Match[]; more: boolean };
      setError('');
      setMatches(body.matches);
      setMore(body.more);
      setCurrent(body.matches.length ? 0 : -1);
      if (body.matches.length) onJump(body.matches[0]!.line);
    } finally {
      setBusy(false);
    }
  };

  const count = matches?.length ?? 0;
  return (
    <div className="log-search">
      <form className="log-search-bar" aria-label={m('search')} onSubmit={search}>
        <input type="search" name="q" value={query} onChange={(e) => setQuery(e.target.value)} maxLength={200}
          aria-label={m('search')} placeholder={m('searchPlaceholder')} />
        <button type="submit" className="btn btn-secondary" disabled={busy} aria-label={m('searchButton')} title={m('searchButton')}>
          <SvgIcon path={mdiMagnify} /><span className="log-search-label">{m('searchButton')}</span>
        </button>
        {count ? <>
          <span className="log-search-position" aria-live="polite">{m('position', { n: current + 1, count: more ? `${count}+` : count })}</span>
          <button type="button" className="icon-button" onClick={() => go(current - 1)} aria-label={m('previous')} title={m('previous')}><SvgIcon path={mdiChevronUp} /></button>
          <button type="button" className="icon-button" onClick={() => go(current + 1)} aria-label={m('next')} title={m('next')}><SvgIcon path={mdiChevronDown} /></button>
        </> : null}
      </form>
      {error ? <p role="alert"><mark>{error}</mark></p> : null}
      {matches ? (
        matches.length ? (
          <div className="log-search-results">
            <p className="log-search-summary">{m(more ? 'matchesMore' : 'matches', { count })}</p>
            <ol aria-label={m('matches', { count })}>
              {matches.map((match, i) => (
                <li key={match.line}>
                  <button type="button" aria-current={i === current ? 'true' : undefined} onClick={() => go(i)}>
                    <span className="log-no" title={m('line', { line: match.line })}>{match.line}</span>
                    <span className="log-search-text">{match.output}</span>
                  </button>
                </li>
              ))}
            </ol>
          </div>
        ) : <p className="log-search-summary" role="status">{m('noMatches')}</p>
      ) : null}
    </div>
  );
}
