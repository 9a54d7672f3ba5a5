// The cron builder of the schedule dialog (seed 001 §9): timing modes yearly … hourly or every
// minute, minutes in steps of 5, hours, days, weekdays and months as toggles, or the raw cron
// text, which the server validates (POST …/schedules/validate) while it is typed. It replaces the
// plain `cron_format` text field the server renders, and posts the same field.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  buildCron, CRON_MODES, cronInWords, DAY_CHOICES, DEFAULT_CRON, HOUR_CHOICES, localeTag, MINUTE_CHOICES, MONTH_CHOICES,
  parseBuilderCron, WEEKDAY_CHOICES, type CronMode, type CronParts,
} from '../console/cron-words.ts';

type Messages = Record<string, string> & { words?: Record<string, string> };
interface Props { name: string; value: string; projectId: number; lang: string; messages: Messages; invalid?: boolean }

const fill = (text: string | undefined, vars: Record<string, string | number> = {}) =>
  (text ?? '').replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(vars[key] ?? ''));

const MODE_KEYS: Record<CronMode, string> = {
  minute: 'modeMinute', hourly: 'modeHourly', daily: 'modeDaily', weekly: 'modeWeekly', monthly: 'modeMonthly', yearly: 'modeYearly',
};
type ListKey = 'minutes' | 'hours' | 'days' | 'weekdays' | 'months';
/** Which choices a mode shows, and what a list starts with when the mode is picked. */
const MODE_LISTS: Record<CronMode, ListKey[]> = {
  minute: [], hourly: ['minutes'], daily: ['minutes', 'hours'], weekly: ['minutes', 'hours', 'weekdays'],
  monthly: ['minutes', 'hours', 'days'], yearly: ['minutes', 'hours', 'days', 'months'],
};
const FIRST: Record<ListKey, number> = { minutes: 0, hours: 0, days: 1, weekdays: 1, months: 1 };
const CHOICES: Record<ListKey, number[]> = { minutes: MINUTE_CHOICES, hours: HOUR_CHOICES, days: DAY_CHOICES, weekdays: WEEKDAY_CHOICES, months: MONTH_CHOICES };
const EVERY_MINUTE: CronParts = { mode: 'minute', minutes: [], hours: [], days: [], weekdays: [], months: [] };

export default function CronBuilder({ name, value, projectId, lang, messages, invalid }: Props) {
  // An empty cron the server refused stays in the raw field, where its message belongs.
  const initial = value.trim() ? parseBuilderCron(value) : invalid ? null : EVERY_MINUTE;
  const [raw, setRaw] = useState(initial === null);
  const [parts, setParts] = useState<CronParts>(initial ?? EVERY_MINUTE);
  const [text, setText] = useState(value.trim() || invalid ? value : DEFAULT_CRON);
  const [check, setCheck] = useState<{ ok: boolean; message: string } | null>(null);
  // the builder was asked for while the typed expression is one it cannot show
  const [kept, setKept] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const cron = raw ? text : buildCron(parts);
  const m = (key: string, vars?: Record<string, string | number>) => fill(messages[key], vars);
  const words = (key: string, vars?: Record<string, string | number>) => fill(messages.words?.[key], vars);
  // an expression beyond words (or invalid) stands alone: it is not said twice
  const description = cronInWords(cron, words, lang);

  const labels = useMemo(() => {
    const tag = localeTag(lang);
    const weekday = new Intl.DateTimeFormat(tag, { weekday: 'short', timeZone: 'UTC' });
    const month = new Intl.DateTimeFormat(tag, { month: 'short', timeZone: 'UTC' });
    return {
      minutes: (v: number) => `:${String(v).padStart(2, '0')}`,
      hours: (v: number) => String(v).padStart(2, '0'),
      days: (v: number) => String(v),
      weekdays: (v: number) => weekday.format(Date.UTC(2023, 0, 1 + v)),
      months: (v: number) => month.format(Date.UTC(2023, v - 1, 1)),
    } satisfies Record<ListKey, (v: number) => string>;
  }, [lang]);

  // The raw text is checked by the server a moment after typing stops.
  useEffect(() => {
    if (!raw) { setCheck(null); return; }
    clearTimeout(timer.current);
    const expression = text.trim();
    // (an empty field the server refused already shows its message under the field)
    if (!expression) { setCheck(invalid ? null : { ok: false, message: m('cronRequired') }); return; }
    timer.current = setTimeout(async () => {
      try {
        const res = await fetch(`/api/project/${projectId}/schedules/validate`, {
          method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ cron_format: expression }),
        });
        if (res.ok) setCheck({ ok: true, message: m('cronOk') });
        else setCheck({ ok: false, message: ((await res.json().catch(() => ({}))) as { error?: string }).error ?? res.statusText });
      } catch {
        setCheck(null);
      }
    }, 350);
    return () => clearTimeout(timer.current);
  }, [raw, text]);

  const pickMode = (mode: CronMode) => setParts((p) => {
    const next = { ...p, mode };
    for (const key of MODE_LISTS[mode]) if (!next[key].length) next[key] = [FIRST[key]];
    return next;
  });
  const toggle = (key: ListKey, v: number) => setParts((p) => ({ ...p, [key]: p[key].includes(v) ? p[key].filter((x) => x !== v) : [...p[key], v] }));
  // What was typed is never replaced: an expression the builder cannot show keeps the raw field.
  const showRaw = (on: boolean) => {
    const shown = on ? null : text.trim() ? parseBuilderCron(text) : EVERY_MINUTE;
    setKept(!on && !shown);
    if (!on && !shown) return;
    if (on) setText(buildCron(parts));
    else setParts(shown!);
    setRaw(on);
  };

  return (
    <div className="cron-builder" data-cron-builder>
      {!raw && (
        <>
          <label>{m('timing')}
            <select value={parts.mode} onChange={(e) => pickMode(e.currentTarget.value as CronMode)} data-cron-mode>
              {CRON_MODES.map((mode) => <option key={mode} value={mode}>{m(MODE_KEYS[mode])}</option>)}
            </select>
          </label>
          {MODE_LISTS[parts.mode].map((key) => (
            <fieldset key={key} className={`cron-choices cron-${key}`} data-cron-list={key}>
              <legend>{m(key)}</legend>
              {CHOICES[key].map((v) => (
                <label key={v} className="cron-choice">
                  <input type="checkbox" value={v} checked={parts[key].includes(v)} onChange={() => toggle(key, v)} />
                  <span>{labels[key](v)}</span>
                </label>
              ))}
            </fieldset>
          ))}
        </>
      )}
      <label className="cron-raw-switch">
        <input type="checkbox" role="switch" checked={raw} onChange={(e) => showRaw(e.currentTarget.checked)} data-cron-raw />
        {m('rawCron')}
      </label>
      {raw ? (
        <input id={name} name={name} value={text} onChange={(e) => { setText(e.currentTarget.value); setKept(false); }} aria-label={m('cron')} maxLength={255}
          autoComplete="off" spellCheck={false} aria-invalid={invalid || (check ? !check.ok : undefined)} aria-describedby={check ? 'cron-check' : undefined} />
      ) : <input type="hidden" name={name} value={cron} />}
      {kept && <small className="cron-kept" role="status">{m('cronNotInBuilder')}</small>}
      <p className="cron-preview" aria-live="polite">
        <code>{cron}</code> {description !== cron.trim() && <span data-cron-words>{description}</span>}
      </p>
      {check && <small id="cron-check" className={check.ok ? 'cron-ok' : 'field-error'} role={check.ok ? undefined : 'alert'}>{check.message}</small>}
    </div>
  );
}
