import { Permission, projectRead, projectWrite, type MatrixRow } from '../../../support/permission-matrix.ts';
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
