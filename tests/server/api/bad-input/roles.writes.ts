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
  const server = await db.insertInto('server_role').values({ slug: 'auditors', name: 'Auditors', permissions: 1024, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  return { role: row.id, serverRole: server.id };
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

/** POST/PUT of the server-wide roles (admins, issue 52 item 2). */
export const SERVER_ROLE_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/roles', path: () => '/api/roles', valid: () => ({ name: 'Readers', permissions: 16 }), fields, maxLength,
    extra: () => [['unknown bits', { name: 'Big', permissions: 4096 }], ['a built-in slug', { name: 'Owner' }], ['a taken slug', { name: 'Auditors' }],
      ['a project role\'s slug', { name: 'Deployers' }]],
  },
  {
    route: 'PUT /api/roles/{r}', path: (x) => `/api/roles/${x.more.serverRole}`, valid: () => ({ name: 'Auditors', permissions: 1040 }), fields, maxLength,
    extra: () => [['a new slug', { slug: 'other' }], ['a fraction of a bit', { permissions: 1.5 }]],
  },
];
