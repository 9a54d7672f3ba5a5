import { saveAppSettings } from '../../../../src/server/domain/apps/app-settings.ts';
import { adminOnly, Permission, projectRead, projectWrite, publicRoute, signedIn, type MatrixRow } from '../../../support/permission-matrix.ts';
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
    route: 'DELETE /api/apps/{custom app}', setup: async (db) => { await db.transaction().execute((tx) => saveAppSettings(tx, customApp, { title: 'Matrix' })); return {}; },
    path: () => `/api/apps/${customApp}`, expect: adminApps(204),
  },
  { route: 'GET /api/project/{id}/runner_tags', path: (w) => `${p(w)}/runner_tags`, expect: projectRead() },
  { route: 'GET /api/runner_tags', path: () => '/api/runner_tags', expect: { ...adminOnly(200, 403), anonymous: 401 } },
  ...storageRows(),
  // task identity tokens are off in the matrix server: the keys and discovery document are 404 for everyone
  { route: 'GET /.well-known/jwks.json', path: () => '/.well-known/jwks.json', expect: publicRoute(404) },
  { route: 'GET /.well-known/openid-configuration', path: () => '/.well-known/openid-configuration', expect: publicRoute(404) },
  // Semaphore's debug route: a full garbage collection, for admins only
  { route: 'POST /api/debug/gc', path: () => '/api/debug/gc', expect: { ...adminOnly(204, 403), anonymous: 401 } },
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

/** Secret storages: any member reads (uses included), owner and manager write and test (ManageResources). */
function storageRows(): MatrixRow[] {
  const setup: MatrixRow['setup'] = async (db, w) => {
    const row = await db.insertInto('secret_storage').values({
      project_id: w.projectId, name: 'Matrix vault', type: 'vault', params: JSON.stringify({ url: 'http://127.0.0.1:9', auth_method: 'token' }), readonly: 1, secret: null, created: new Date().toISOString(),
    }).returning('id').executeTakeFirstOrThrow();
    return { storage: row.id };
  };
  const body: MatrixRow['body'] = () => ({ name: 'Vault', type: 'vault', params: { url: 'http://127.0.0.1:9', auth_method: 'token' }, secret: 'hvs.matrix' });
  const one = (w: { projectId: number }, ids: Record<string, number>) => `${p(w)}/secret_storages/${ids.storage}`;
  return [
    { route: 'GET /api/project/{id}/secret_storages', setup, path: (w) => `${p(w)}/secret_storages`, expect: projectRead() },
    { route: 'GET /api/project/{id}/secret_storages/{s}', setup, path: (w, _, ids) => one(w, ids), expect: projectRead() },
    { route: 'GET /api/project/{id}/secret_storages/{s}/refs', setup, path: (w, _, ids) => `${one(w, ids)}/refs`, expect: projectRead() },
    { route: 'POST /api/project/{id}/secret_storages', setup, path: (w) => `${p(w)}/secret_storages`, body, expect: projectWrite(Permission.ManageResources, 201) },
    { route: 'PUT /api/project/{id}/secret_storages/{s}', setup, path: (w, _, ids) => one(w, ids), body, expect: projectWrite(Permission.ManageResources, 204) },
    { route: 'DELETE /api/project/{id}/secret_storages/{s}', setup, path: (w, _, ids) => one(w, ids), expect: projectWrite(Permission.ManageResources, 204) },
    // nothing listens on port 9: the test answers {ok: false} at once
    { route: 'POST /api/project/{id}/secret_storages/{s}/test', setup, path: (w, _, ids) => `${one(w, ids)}/test`, expect: projectWrite(Permission.ManageResources, 200) },
  ];
}
