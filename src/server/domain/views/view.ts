import { z } from 'zod';
import { leaveOutUnset } from '../../lib/unset-fields.ts';
import type { Selectable } from 'kysely';
import type { ViewTable } from '../../db/schema.ts';
import { smallCount } from '../shared/project-refs.ts';

export const viewInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  title: z.string().max(255, 'at most 255 characters').optional(),
  position: smallCount.optional(),
  hidden: z.boolean().optional(),
  type: z.enum(['', 'all']).optional(),
  sort_column: z.string().max(64).nullable().optional(),
  sort_reverse: z.boolean().optional(),
});
export type ViewInput = z.infer<typeof viewInputSchema>;

/** `{"<view id>": position}` of POST /views/positions. */
export const viewPositionsSchema = z.record(z.string().regex(/^\d+$/, 'keys must be view ids'), smallCount);

export type ViewRow = Selectable<ViewTable>;

/** A view as the API shows it (reference §3.10). */
export function viewRowToView(row: ViewRow) {
  return leaveOutUnset({
    id: row.id, project_id: row.project_id, title: row.title, position: row.position,
    hidden: Boolean(row.hidden), type: row.type, sort_column: row.sort_column, sort_reverse: Boolean(row.sort_reverse),
  }, ['sort_column']);
}
