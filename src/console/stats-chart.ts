import type { StatsEntry } from './types.ts';

export type StatsPeriod = 'week' | 'month' | 'year';
export const STATS_PERIODS: StatsPeriod[] = ['week', 'month', 'year'];
const PERIOD_DAYS: Record<StatsPeriod, number> = { week: 7, month: 30, year: 365 };
export const STATS_SERIES = [
  { status: 'success', colour: 'var(--tone-success)' },
  { status: 'error', colour: 'var(--tone-danger)' },
  { status: 'stopped', colour: 'var(--tone-neutral)' },
] as const;

export interface StatsChart {
  width: number;
  height: number;
  max: number;
  days: string[];
  lines: { status: string; colour: string; points: string; total: number }[];
}

/** The first day (YYYY-MM-DD, UTC) of a period ending today. */
export function periodStart(period: StatsPeriod, today = new Date()): string {
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  start.setUTCDate(start.getUTCDate() - PERIOD_DAYS[period] + 1);
  return start.toISOString().slice(0, 10);
}

/**
 * Polylines of tasks per day by status over the period, days without tasks counted as 0; the
 * chart is drawn as SVG on the server, so the browser needs no chart code.
 * @example buildStatsChart(entries, 'week').lines[0].points
 */
export function buildStatsChart(entries: StatsEntry[], period: StatsPeriod, today = new Date()): StatsChart {
  const width = 800;
  const height = 260;
  const days: string[] = [];
  const first = new Date(periodStart(period, today) + 'T00:00:00Z');
  for (let i = 0; i < PERIOD_DAYS[period]; i++) {
    days.push(new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10));
  }
  const byDay = new Map(entries.map((e) => [e.date.slice(0, 10), e.count_by_status]));
  const max = Math.max(1, ...days.flatMap((d) => STATS_SERIES.map((s) => byDay.get(d)?.[s.status] ?? 0)));
  const step = days.length > 1 ? width / (days.length - 1) : width;
  const lines = STATS_SERIES.map((series) => {
    const counts = days.map((d) => byDay.get(d)?.[series.status] ?? 0);
    const points = counts.map((c, i) => `${round(i * step)},${round(height - (c / max) * height)}`).join(' ');
    return { status: series.status, colour: series.colour, points, total: counts.reduce((a, b) => a + b, 0) };
  });
  return { width, height, max, days, lines };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
