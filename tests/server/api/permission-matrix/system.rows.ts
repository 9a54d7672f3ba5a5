import { saveAppSettings } from '../../../../src/server/domain/apps/app-settings.ts';
import { adminOnly, Permission, projectRead, projectWrite, signedIn, type MatrixRow } from '../../../support/permission-matrix.ts';
import { insertProjectResources } from '../../../support/resource-rows.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
/** Admins only; other signed-in callers 403, anonymous 401. */
const adminApps = (status: number) => ({ ...adminOnly(status, 403), anonymous: 401 });
const customApp = 'matrix-app';

/** Apps, runner tags, secret storages, stats, backup and restore, the project cache and test alert × every caller. */
export const SYSTEM_MATRIX: MatrixRow[] = [
  { route: 'GET /api/apps', path: () => '/api/apps', expect: signedIn(200) },
  { route: 'GET /api/apps/{app}', path: () => '/api/apps/ansible', expect: adminApps(200) },
  { route: 'POST /api/apps/{app}', path: () => `/api/apps/${customApp}`, body: () => ({ title: 'Matrix', path: '/bin/true' }), expect: adminApps(204) },
  { route: 'PUT /api/apps/{app}', path: () => `/api/apps/${customApp}`, body: () => ({ title: 'Matrix', path: '/bin/true' }), expect: adminApps(204) },
  { route: 'POST /api/apps/{app}/active', path: () => '/api/apps/bash/active', body: () => ({ active: true }), expect: adminApps(204) },
  {
    route: 'DELETE /api/apps/{custom app}', setup: async (db) => { await saveAppSettings(db, customApp, { title: 'Matrix' }); return {}; },
    path: () => `/api/apps/${customApp}`, expect: adminApps(204),
  },
  { route: 'GET /api/project/{id}/runner_tags', path: (w) => `${p(w)}/runner_tags`, expect: projectRead() },
  { route: 'GET /api/runner_tags', path: () => '/api/runner_tags', expect: { ...adminOnly(200, 403), anonymous: 401 } },
  { route: 'GET /api/project/{id}/secret_storages', path: (w) => `${p(w)}/secret_storages`, expect: projectRead() },
  { route: 'GET /api/project/{id}/stats', path: (w) => `${p(w)}/stats`, expect: projectRead() },
  { route: 'GET /api/project/{id}/backup', setup: (db, w) => insertProjectResources(db, w.projectId), path: (w) => `${p(w)}/backup`, expect: projectWrite(Permission.ManageResources, 200) },
  { route: 'DELETE /api/project/{id}/cache', path: (w) => `${p(w)}/cache`, expect: projectWrite(Permission.UpdateProject, 204) },
  // the world's project has alerts off: those allowed hear so (409, as Semaphore); notifications-test.test.ts sends real ones
  { route: 'POST /api/project/{id}/notifications/test', path: (w) => `${p(w)}/notifications/test`, expect: projectWrite(Permission.UpdateProject, 409) },
  {
    route: 'POST /api/projects/restore', path: () => '/api/projects/restore',
    body: () => ({ meta: { name: 'Restored' }, keys: [], repositories: [], inventories: [], environments: [], views: [], templates: [] }),
    expect: adminOnly(200, 401),
  },
];
