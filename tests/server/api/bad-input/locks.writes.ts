import type { Db } from '../../../../src/server/db/database.ts';
import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';
import { now } from '../../../../src/server/lib/time.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const fields = { name: 'string', capacity: 'number', description: 'string' } as const;
const maxLength = { description: 1024 };

/** A lock of the project, for the lock writes to change. */
export async function prepareLocks(db: Db, { w }: BadInputContext): Promise<Record<string, number>> {
  const row = await db.insertInto('project_lock').values({ project_id: w.projectId, name: 'prod', capacity: 1, description: '', created: now() })
    .returning('id').executeTakeFirstOrThrow();
  return { lock: row.id };
}

/** POST/PUT of a project's named locks (Signalbox). */
export const LOCK_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/project/{id}/locks', path: (x) => `${p(x)}/locks`, valid: () => ({ name: 'staging', capacity: 3, description: 'shared' }), fields, maxLength,
    extra: () => [['a capacity of 0', { name: 'zero', capacity: 0 }], ['a name with spaces', { name: 'a b' }], ['a taken name', { name: 'prod' }]],
  },
  {
    route: 'PUT /api/project/{id}/locks/{l}', path: (x) => `${p(x)}/locks/${x.more.lock}`, valid: () => ({ name: 'production', capacity: 2, description: '' }), fields, maxLength,
    extra: () => [['a capacity past the most', { name: 'prod', capacity: 100_000 }]],
  },
];
