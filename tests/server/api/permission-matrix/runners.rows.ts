import type { Db } from '../../../../src/server/db/database.ts';
import { adminOnly, Permission, projectRead, projectWrite, publicRoute, type MatrixRow } from '../../../support/permission-matrix.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
const adminRunners = (status: number) => ({ ...adminOnly(status, 403), anonymous: 401 });

async function insertRunner(db: Db, projectId: number | null, registered: boolean): Promise<number> {
  const row = await db.insertInto('runner').values({
    project_id: projectId, name: 'matrix', webhook: '', max_parallel_tasks: 0, active: 1, tags: '["t"]',
    token_hash: registered ? 'x'.repeat(64) : null, registration_token_hash: null, public_key: null, touched: null, cleaning_requested: null,
    created: new Date().toISOString(),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const projectRunner: MatrixRow['setup'] = async (db, w) => ({ runner: await insertRunner(db, w.projectId, true), fresh: await insertRunner(db, w.projectId, false) });
const globalRunner: MatrixRow['setup'] = async (db) => ({ runner: await insertRunner(db, null, true), fresh: await insertRunner(db, null, false) });
const body = () => ({ name: 'R', tag: 't', max_parallel_tasks: 2, webhook: 'http://127.0.0.1:9/hook' });

/** Project and global runners, and the runners' own protocol (X-Runner-Token, no session) × every caller. */
export const RUNNERS_MATRIX: MatrixRow[] = [
  { route: 'GET /api/project/{id}/runners', setup: projectRunner, path: (w) => `${p(w)}/runners`, expect: projectRead() },
  { route: 'POST /api/project/{id}/runners', path: (w) => `${p(w)}/runners`, body, expect: projectWrite(Permission.ManageResources, 201) },
  { route: 'GET /api/project/{id}/runners/{runner}', setup: projectRunner, path: (w, _, ids) => `${p(w)}/runners/${ids.runner}`, expect: projectRead() },
  { route: 'PUT /api/project/{id}/runners/{runner}', setup: projectRunner, path: (w, _, ids) => `${p(w)}/runners/${ids.runner}`, body, expect: projectWrite(Permission.ManageResources, 204) },
  { route: 'DELETE /api/project/{id}/runners/{runner}', setup: projectRunner, path: (w, _, ids) => `${p(w)}/runners/${ids.runner}`, expect: projectWrite(Permission.ManageResources, 204) },
  {
    route: 'POST /api/project/{id}/runners/{runner}/active', setup: projectRunner, path: (w, _, ids) => `${p(w)}/runners/${ids.runner}/active`,
    body: () => ({ active: false }), expect: projectWrite(Permission.ManageResources, 204),
  },
  {
    route: 'POST /api/project/{id}/runners/{unregistered runner}/registration-token', setup: projectRunner,
    path: (w, _, ids) => `${p(w)}/runners/${ids.fresh}/registration-token`, expect: projectWrite(Permission.ManageResources, 200),
  },
  { route: 'DELETE /api/project/{id}/runners/{runner}/cache', setup: projectRunner, path: (w, _, ids) => `${p(w)}/runners/${ids.runner}/cache`, expect: projectWrite(Permission.ManageResources, 204) },
  { route: 'GET /api/runners', setup: globalRunner, path: () => '/api/runners', expect: adminRunners(200) },
  { route: 'POST /api/runners', path: () => '/api/runners', body, expect: adminRunners(201) },
  { route: 'GET /api/runners/{runner}', setup: globalRunner, path: (_w, _, ids) => `/api/runners/${ids.runner}`, expect: adminRunners(200) },
  { route: 'PUT /api/runners/{runner}', setup: globalRunner, path: (_w, _, ids) => `/api/runners/${ids.runner}`, body, expect: adminRunners(204) },
  { route: 'DELETE /api/runners/{runner}', setup: globalRunner, path: (_w, _, ids) => `/api/runners/${ids.runner}`, expect: adminRunners(204) },
  { route: 'POST /api/runners/{runner}/active', setup: globalRunner, path: (_w, _, ids) => `/api/runners/${ids.runner}/active`, body: () => ({ active: false }), expect: adminRunners(204) },
  {
    route: 'POST /api/runners/{unregistered runner}/registration-token', setup: globalRunner,
    path: (_w, _, ids) => `/api/runners/${ids.fresh}/registration-token`, expect: adminRunners(200),
  },
  { route: 'DELETE /api/runners/{runner}/cache', setup: globalRunner, path: (_w, _, ids) => `/api/runners/${ids.runner}/cache`, expect: adminRunners(204) },
  // the runners' protocol ignores sessions and API tokens: without X-Runner-Token nobody gets in
  { route: 'GET /api/internal/runners', path: () => '/api/internal/runners', expect: publicRoute(401) },
  { route: 'PUT /api/internal/runners', path: () => '/api/internal/runners', body: () => ({ jobs: [] }), expect: publicRoute(401) },
  { route: 'DELETE /api/internal/runners', path: () => '/api/internal/runners', expect: publicRoute(401) },
  { route: 'POST /api/internal/runners', path: () => '/api/internal/runners', body: () => ({ registration_token: 'not-the-token' }), expect: publicRoute(400) },
];
