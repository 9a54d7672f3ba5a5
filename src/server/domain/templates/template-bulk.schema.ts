import { z } from 'zod';
import { fields } from '../../http/validation.ts';

/** Most templates one bulk request may name. */
export const BULK_MAX_TEMPLATES = 500;
export const BULK_ACTIONS = ['run', 'move', 'disable', 'enable', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** `POST /api/project/{id}/templates/bulk`. */
export const templateBulkSchema = z.strictObject({
  action: z.enum(BULK_ACTIONS),
  template_ids: z.array(fields.id).min(1, 'name at least one template').max(BULK_MAX_TEMPLATES, `at most ${BULK_MAX_TEMPLATES} templates`),
  view_id: fields.optionalId.meta({ description: 'move: the view the templates go to; null or left out takes them out of every view' }),
});
export type TemplateBulkInput = z.infer<typeof templateBulkSchema>;

/** What became of one template of a bulk request. */
export interface BulkResult {
  template_id: number;
  /** the template's name (before a delete) */
  name: string;
  ok: boolean;
  /** why this template was refused (the single action's message) */
  error?: string;
  /** a refusal a client may word itself: the template is disabled (run), still referenced (delete) */
  code?: 'disabled' | 'in_use';
  /** run: the task started */
  task_id?: number;
}
