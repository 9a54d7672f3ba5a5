import { z } from 'zod';
import { badRequest } from '../../http/errors.ts';
import type { TemplateRow } from '../../db/schema.ts';
import { parseDuration } from '../../lib/duration.ts';

/**
 * What a start past the template's limit does: waits its turn (first come first served), stops
 * the earlier tasks so the newest runs (a deploy of the newest commit wins), or is refused.
 */
export const CONCURRENCY_POLICIES = ['queue', 'cancel_previous', 'refuse'] as const;
export type ConcurrencyPolicy = (typeof CONCURRENCY_POLICIES)[number];

/** The largest limit: beyond it a limit means nothing on one machine. */
export const MAX_CONCURRENCY_LIMIT = 1000;

/** The template's concurrency fields (Signalbox's own). */
export const concurrencyTemplateFields = {
  concurrency_limit: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1')
    .max(MAX_CONCURRENCY_LIMIT, `at most ${MAX_CONCURRENCY_LIMIT}`).nullable().optional()
    .meta({ description: 'Signalbox: at most this many tasks of the template run at once (empty: one, or any number with allow_parallel_tasks)' }),
  concurrency_policy: z.enum(CONCURRENCY_POLICIES, { error: 'must be queue, cancel_previous or refuse' }).optional()
    .meta({ description: 'Signalbox: a start past the limit waits its turn (queue), stops the running ones (cancel_previous) or is refused with 409 (refuse)' }),
  rate_limit_starts: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'at most 10000').nullable().optional()
    .meta({ description: 'Signalbox: schedules and webhooks start at most this many tasks of the template per rate_limit_window (empty: no limit)' }),
  rate_limit_window: z.string().trim().max(32).nullable().optional()
    .refine((v) => !v || (parseDuration(v) ?? 0) > 0, 'must be a duration such as 30s, 10m or 1h')
    .meta({ description: 'Signalbox: the window of rate_limit_starts, such as 10m' }),
};

type ConcurrencyInput = { [K in keyof typeof concurrencyTemplateFields]?: z.infer<(typeof concurrencyTemplateFields)[K]> };
export type ConcurrencyColumns = Pick<TemplateRow, 'concurrency_limit' | 'concurrency_policy' | 'rate_limit_starts' | 'rate_limit_window'>;

/**
 * The template's concurrency columns after this body: fields left out keep their stored value.
 * @example concurrencyColumns({ concurrency_limit: 2, concurrency_policy: 'refuse' }) // { concurrency_limit: 2, concurrency_policy: 'refuse' }
 */
export function concurrencyColumns(input: ConcurrencyInput, current?: TemplateRow): ConcurrencyColumns {
  const starts = input.rate_limit_starts !== undefined ? input.rate_limit_starts : current?.rate_limit_starts ?? null;
  const window = input.rate_limit_window !== undefined ? input.rate_limit_window || null : current?.rate_limit_window ?? null;
  if ((starts === null) !== (window === null)) throw badRequest('rate_limit_starts, rate_limit_window: give both, or neither');
  return {
    concurrency_limit: input.concurrency_limit !== undefined ? input.concurrency_limit : current?.concurrency_limit ?? null,
    concurrency_policy: input.concurrency_policy ?? current?.concurrency_policy ?? 'queue',
    rate_limit_starts: starts,
    rate_limit_window: window,
  };
}

/** The API's view: the limit (null: none of its own), the policy and the triggers' rate limit. */
export function concurrencyFieldsOf(row: Pick<TemplateRow, 'concurrency_limit' | 'concurrency_policy' | 'rate_limit_starts' | 'rate_limit_window'>) {
  return {
    concurrency_limit: row.concurrency_limit ?? null, concurrency_policy: policyOf(row),
    rate_limit_starts: row.rate_limit_starts ?? null, rate_limit_window: row.rate_limit_window ?? null,
  };
}

/**
 * The template's rate limit for triggers, or null when it has none.
 * @example templateRateLimit({ rate_limit_starts: 5, rate_limit_window: '10m' }) // { starts: 5, seconds: 600, window: '10m' }
 */
export function templateRateLimit(row: Pick<TemplateRow, 'rate_limit_starts' | 'rate_limit_window'>): { starts: number; seconds: number; window: string } | null {
  const seconds = row.rate_limit_window ? parseDuration(row.rate_limit_window) : null;
  return row.rate_limit_starts && seconds ? { starts: row.rate_limit_starts, seconds, window: row.rate_limit_window! } : null;
}

function policyOf(row: Pick<TemplateRow, 'concurrency_policy'>): ConcurrencyPolicy {
  return (CONCURRENCY_POLICIES as readonly string[]).includes(row.concurrency_policy) ? row.concurrency_policy as ConcurrencyPolicy : 'queue';
}

/**
 * How many of the template's tasks may be active at once, and what a start past that does.
 * Without a limit of its own a template runs one task at a time unless it allows parallel
 * tasks (Semaphore's rule); then the limit is null (none).
 * @example templateConcurrency({ concurrency_limit: null, allow_parallel_tasks: 0, concurrency_policy: 'queue' }) // { limit: 1, policy: 'queue', own: false }
 */
export function templateConcurrency(row: Pick<TemplateRow, 'concurrency_limit' | 'concurrency_policy' | 'allow_parallel_tasks'>): { limit: number | null; policy: ConcurrencyPolicy; own: boolean } {
  const own = row.concurrency_limit !== null && row.concurrency_limit !== undefined;
  return { limit: own ? row.concurrency_limit : row.allow_parallel_tasks ? null : 1, policy: policyOf(row), own };
}
