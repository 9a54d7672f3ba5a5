import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { ProjectLockTable } from '../../db/schema.ts';
import { fields } from '../../http/validation.ts';

/** A lock name as templates list it: short, no spaces, so it reads the same in a list and a log. */
const LOCK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
export const lockNameField = z.string().trim().regex(LOCK_NAME, 'must be letters, digits, _ . : - (at most 64, no spaces)');

/** The most tasks one lock lets in at once. */
export const MAX_LOCK_CAPACITY = 1000;

/** Body of POST/PUT `/api/project/{id}/locks`. */
export const lockInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  name: lockNameField.optional(),
  capacity: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1')
    .max(MAX_LOCK_CAPACITY, `at most ${MAX_LOCK_CAPACITY}`).optional()
    .meta({ description: 'How many tasks may hold the lock at once (default 1)' }),
  description: fields.text(1024).nullable().optional(),
  held_by: z.unknown().optional(),
  waiting: z.unknown().optional(),
  templates: z.unknown().optional(),
});
export type LockInput = z.infer<typeof lockInputSchema>;

export type LockRow = Selectable<ProjectLockTable>;

/** A lock as the API shows it: what it is, who holds it now and how many wait for it. */
export interface Lock {
  id: number;
  project_id: number;
  name: string;
  capacity: number;
  description: string;
  /** the templates that need it */
  templates: number[];
  /** the active tasks that hold it, oldest first */
  held_by: number[];
  /** waiting tasks whose template needs it */
  waiting: number;
}
