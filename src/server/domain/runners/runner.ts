import { z } from 'zod';
import type { RunnerRow } from '../../db/schema.ts';
import { INT32_MAX } from '../../http/validation.ts';

// an empty tag is dropped (tagsOf), as Semaphore's clients send [""] for none
const tag = z.string().trim().max(255, 'at most 255 characters');

/**
 * The body of POST/PUT `/runners` and `/project/{id}/runners` (Semaphore's `RunnerRequest`).
 * `tag` is the console's single tag; `tags` the 2.16 list (both are accepted, merged).
 */
export const runnerInputSchema = z.strictObject({
  project_id: z.number().int().optional(),
  // optional as in Semaphore's RunnerRequest (its clients create runners without one); the console requires it
  name: z.string().trim().max(255, 'at most 255 characters').optional(),
  webhook: z.string().trim().max(1024, 'at most 1024 characters')
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'must be an http(s) URL').optional(),
  // 0 or less means no limit; any integer is taken, as Semaphore takes it
  max_parallel_tasks: z.number().int().min(-INT32_MAX, 'too small').max(INT32_MAX, 'too large').optional(),
  active: z.boolean().optional(),
  tag: z.string().trim().max(255, 'at most 255 characters').optional(),
  tags: z.array(tag).max(32, 'at most 32 tags').nullable().optional(),
  registered: z.boolean().optional(),
  /** Semaphore 2.18: the scope's default runner takes its untagged tasks; one per scope */
  is_default: z.boolean().optional(),
});
export type RunnerInput = z.infer<typeof runnerInputSchema>;

/** `POST …/runners/{id}/active`. */
export const runnerActiveSchema = z.strictObject({ active: z.boolean() });

/** The runner's tags: the list plus the single tag, without duplicates. */
export function tagsOf(input: Pick<RunnerInput, 'tag' | 'tags'>): string[] {
  const all = [...(input.tags ?? []), ...(input.tag ? [input.tag] : [])].map((t) => t.trim()).filter(Boolean);
  return [...new Set(all)];
}

export function parseTags(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** A runner as the API shows it: never its token hashes nor its key. */
export function runnerRowToRunner(row: RunnerRow) {
  const tags = parseTags(row.tags);
  return {
    id: row.id, project_id: row.project_id, name: row.name, webhook: row.webhook, max_parallel_tasks: row.max_parallel_tasks,
    active: Boolean(row.active), is_default: Boolean(row.is_default), tags, tag: tags[0] ?? '', touched: row.touched,
    cleaning_requested: row.cleaning_requested, registered: row.token_hash !== null,
  };
}
export type Runner = ReturnType<typeof runnerRowToRunner>;
