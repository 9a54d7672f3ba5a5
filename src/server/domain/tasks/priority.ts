import { z } from 'zod';

/** How urgent a start is; schedules, webhooks and a start that names none are `normal`. */
export const PRIORITIES = ['high', 'normal', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const prioritySchema = z.enum(PRIORITIES, { error: 'must be high, normal or low' })
  .meta({ description: 'Signalbox: high, normal (the default) or low; waiting raises it, one level per 300 seconds' });

/** Waiting this long counts as one level of priority: a task's age wins over a newer, more urgent one. */
export const AGING_SECONDS = 300;

const LEVEL: Record<Priority, number> = { high: 1, normal: 0, low: -1 };

/**
 * The task's place in the queue: the claim takes the lowest first (then the lowest id). A task
 * queued at time t with level p ranks as if it had arrived at t − p·AGING_SECONDS, so of two
 * waiting tasks the one with the greater `level + seconds waited / AGING_SECONDS` goes first —
 * a comparison that does not change while both wait, so it is stored once. Within one priority
 * this is arrival order; a `low` task waits at most 2·AGING_SECONDS longer than a `high` one
 * queued at the same moment, so none starves.
 * @example queueRank('2026-11-29T06:00:00.000Z', 'high') // 1795931700
 */
export function queueRank(created: string, priority: Priority): number {
  return Date.parse(created) / 1000 - priorityHeadStart(priority);
}

/** How many seconds earlier than its arrival a task of this priority ranks. */
export function priorityHeadStart(priority: Priority): number {
  return LEVEL[priority] * AGING_SECONDS;
}

/** The stored priority as the API shows it (anything unknown reads as `normal`). */
export function readPriority(value: string | null | undefined): Priority {
  return (PRIORITIES as readonly string[]).includes(value ?? '') ? (value as Priority) : 'normal';
}
