import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { RepositoryTable } from '../../db/schema.ts';
import { fields, INT32_MAX } from '../../http/validation.ts';

export type RepositoryRow = Selectable<RepositoryTable>;

/** Body of POST/PUT `/repositories`. */
export const repositoryInputSchema = z.strictObject({
  id: z.number().int().optional(),
  name: fields.name,
  project_id: z.number().int().nullable().optional(),
  git_url: z.string().trim().min(1, 'required').max(2048, 'at most 2048 characters'),
  git_branch: z.string().trim().max(255, 'at most 255 characters').nullable().optional(),
  ssh_key_id: z.number({ error: 'required; choose a key (None for public repositories)' }).int().positive().max(INT32_MAX, 'no such id'),
  /** Semaphore 2.20; not sent: submodules are fetched, as before the field existed */
  pull_submodules: z.boolean().optional(),
});
export type RepositoryInput = z.infer<typeof repositoryInputSchema>;

export interface Repository {
  id: number;
  name: string;
  project_id: number;
  git_url: string;
  git_branch: string;
  ssh_key_id: number;
  pull_submodules: boolean;
}

/** Maps a row to the API shape. */
export function repositoryRowToRepository(row: RepositoryRow): Repository {
  return { id: row.id, name: row.name, project_id: row.project_id, git_url: row.git_url, git_branch: row.git_branch, ssh_key_id: row.ssh_key_id, pull_submodules: Boolean(row.pull_submodules) };
}
