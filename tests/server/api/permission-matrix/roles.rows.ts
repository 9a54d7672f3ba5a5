import { adminOnly, Permission, projectRead, projectWrite, type MatrixRow } from '../../../support/permission-matrix.ts';
import { now } from '../../../../src/server/lib/time.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}/roles`;
const setup: MatrixRow['setup'] = async (db, w) => {
  const row = await db.insertInto('project_role').values({ project_id: w.projectId, slug: 'reader', name: 'Reader', permissions: 16, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  return { role: row.id };
};

/** Custom project roles: any member lists and reads them (the team screen names them), ManageUsers writes. */
export const ROLES_MATRIX: MatrixRow[] = [
  { route: 'GET /api/project/{id}/roles', setup, path: p, expect: projectRead() },
  { route: 'GET /api/project/{id}/roles/{role}', setup, path: (w, _, ids) => `${p(w)}/${ids.role}`, expect: projectRead() },
  { route: 'POST /api/project/{id}/roles', setup, path: p, body: () => ({ name: 'Operator', permissions: 49 }), expect: projectWrite(Permission.ManageUsers, 201) },
  { route: 'PUT /api/project/{id}/roles/{role}', setup, path: (w, _, ids) => `${p(w)}/${ids.role}`, body: () => ({ name: 'Readers', permissions: 17 }), expect: projectWrite(Permission.ManageUsers, 204) },
  { route: 'DELETE /api/project/{id}/roles/{role}', setup, path: (w, _, ids) => `${p(w)}/${ids.role}`, expect: projectWrite(Permission.ManageUsers, 204) },
];

const serverSetup: MatrixRow['setup'] = async (db) => {
  const row = await db.insertInto('server_role').values({ slug: `auditor_${Math.random().toString(36).slice(2, 8)}`, name: 'Auditor', permissions: 1024 | 16, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  return { role: row.id };
};
const adminRoute = (status: number) => ({ ...adminOnly(status, 403), anonymous: 401 });

/** Server-wide roles (issue 52 item 2): admins only, every verb. */
export const SERVER_ROLES_MATRIX: MatrixRow[] = [
  { route: 'GET /api/roles', setup: serverSetup, path: () => '/api/roles', expect: adminRoute(200) },
  { route: 'GET /api/roles/{role}', setup: serverSetup, path: (_w, _, ids) => `/api/roles/${ids.role}`, expect: adminRoute(200) },
  { route: 'POST /api/roles', path: () => '/api/roles', body: () => ({ name: `Reader ${Math.random().toString(36).slice(2, 8)}`, permissions: 16 }), expect: adminRoute(201) },
  { route: 'PUT /api/roles/{role}', setup: serverSetup, path: (_w, _, ids) => `/api/roles/${ids.role}`, body: () => ({ name: 'Auditors', permissions: 1040 }), expect: adminRoute(204) },
  { route: 'DELETE /api/roles/{role}', setup: serverSetup, path: (_w, _, ids) => `/api/roles/${ids.role}`, expect: adminRoute(204) },
];
