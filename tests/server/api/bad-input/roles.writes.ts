import type { Db } from '../../../../src/server/db/database.ts';
import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';
import { now } from '../../../../src/server/lib/time.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const fields = { slug: 'string', name: 'string', permissions: 'number' } as const;
const maxLength = { name: 255 };

/** A custom role of the project, for the role writes to change. */
export async function prepareRoles(db: Db, { w }: BadInputContext): Promise<Record<string, number>> {
  const row = await db.insertInto('project_role').values({ project_id: w.projectId, slug: 'deployers', name: 'Deployers', permissions: 1, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  return { role: row.id };
}

/** POST/PUT of a project's custom roles (Signalbox, issue 52). */
export const ROLE_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/project/{id}/roles', path: (x) => `${p(x)}/roles`, valid: () => ({ name: 'Operators', permissions: 49 }), fields, maxLength,
    extra: () => [['unknown bits', { name: 'Big', permissions: 4096 }], ['a built-in slug', { name: 'Guest' }], ['a taken slug', { name: 'Deployers' }], ['a negative set of bits', { name: 'N', permissions: -1 }]],
  },
  {
    route: 'PUT /api/project/{id}/roles/{r}', path: (x) => `${p(x)}/roles/${x.more.role}`, valid: () => ({ name: 'Deployers', permissions: 33 }), fields, maxLength,
    extra: () => [['a new slug', { slug: 'other' }], ['a fraction of a bit', { permissions: 1.5 }]],
  },
];
