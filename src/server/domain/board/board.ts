import { z } from 'zod';
import { INT32_MAX } from '../../http/validation.ts';

/** At most this many projects on one board or in one token. */
export const MAX_BOARD_PROJECTS = 200;

const idList = z.string().max(4000, 'too long')
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'must be a comma-separated list of project ids')
  .transform((text) => [...new Set(text.split(',').map(Number))])
  .refine((ids) => ids.every((id) => id >= 1 && id <= INT32_MAX), 'must be a comma-separated list of project ids')
  .refine((ids) => ids.length <= MAX_BOARD_PROJECTS, `at most ${MAX_BOARD_PROJECTS} projects`);

const positiveId = z.string().regex(/^\d{1,10}$/, 'must be a positive integer').transform(Number)
  .refine((id) => id >= 1 && id <= INT32_MAX, 'must be a positive integer');

/** `GET /api/board` query: which projects (default: all one may see), tiles per template or view, one view's templates. */
export const boardQuerySchema = z.object({
  project_ids: idList.optional(),
  by: z.enum(['template', 'view'], { message: 'must be template or view' }).optional(),
  view_id: positiveId.optional(),
  token: z.string().max(200, 'too long').optional(),
});

/** `POST /api/board/tokens` body. */
export const boardTokenCreateSchema = z.strictObject({
  name: z.string().trim().max(255, 'at most 255 characters').optional(),
  project_ids: z.array(z.number().int().positive().max(INT32_MAX, 'no such id')).min(1, 'at least one project').max(MAX_BOARD_PROJECTS, `at most ${MAX_BOARD_PROJECTS} projects`),
  by: z.enum(['template', 'view'], { message: 'must be template or view' }).optional(),
  view_id: z.number().int().positive().max(INT32_MAX, 'no such id').nullable().optional(),
});
