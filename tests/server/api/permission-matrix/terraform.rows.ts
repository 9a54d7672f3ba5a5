import { adminOnly, Permission, projectRead, projectWrite, publicRoute, type MatrixRow } from '../../../support/permission-matrix.ts';
import { insertProjectResources } from '../../../support/resource-rows.ts';

const setup: MatrixRow['setup'] = (db, w) => insertProjectResources(db, w.projectId);
const tf = (w: { projectId: number }, ids: Record<string, number>) => `/api/project/${w.projectId}/inventory/${ids.workspace}/terraform`;
const read = (route: string, rest: (ids: Record<string, number>) => string): MatrixRow => ({ route, setup, path: (w, _, ids) => `${tf(w, ids)}${rest(ids)}`, expect: projectRead() });
const write = (route: string, status: number, rest: (ids: Record<string, number>) => string, body?: () => unknown): MatrixRow => ({
  route, setup, path: (w, _, ids) => `${tf(w, ids)}${rest(ids)}`, body, expect: projectWrite(Permission.ManageResources, status),
});
const backend = (method: string): MatrixRow => ({ route: `${method} /api/terraform/{alias}`, setup, path: (w) => `/api/terraform/tfalias${w.projectId}`, expect: publicRoute(401) });

/**
 * Terraform state aliases and versions × every caller: members list them, managers change them
 * and read state text (it can hold secrets). The backend itself takes only basic auth, so no
 * session or API token opens it. Metrics are off on this server; purge now is for admins.
 */
export const TERRAFORM_MATRIX: MatrixRow[] = [
  read('GET /api/project/{id}/inventory/{ws}/terraform/aliases', () => '/aliases'),
  read('GET /api/project/{id}/inventory/{ws}/terraform/aliases/{a}', (ids) => `/aliases/${ids.tfAlias}`),
  read('GET /api/project/{id}/inventory/{ws}/terraform/states', () => '/states'),
  write('POST /api/project/{id}/inventory/{ws}/terraform/aliases', 200, () => '/aliases', () => ({})),
  write('PUT /api/project/{id}/inventory/{ws}/terraform/aliases/{a}', 204, (ids) => `/aliases/${ids.tfAlias}`, () => ({ auth_key_id: null })),
  write('DELETE /api/project/{id}/inventory/{ws}/terraform/aliases/{a}', 204, (ids) => `/aliases/${ids.tfAlias}`),
  write('GET /api/project/{id}/inventory/{ws}/terraform/states/latest', 200, () => '/states/latest'),
  write('GET /api/project/{id}/inventory/{ws}/terraform/states/{s}', 200, (ids) => `/states/${ids.tfState}`),
  write('DELETE /api/project/{id}/inventory/{ws}/terraform/states/{s}', 204, (ids) => `/states/${ids.tfState}`),
  backend('GET'), backend('POST'), backend('LOCK'), backend('UNLOCK'),
  { route: 'GET /api/metrics', path: () => '/api/metrics', expect: publicRoute(404) },
  { route: 'POST /api/retention/purge', path: () => '/api/retention/purge', expect: { ...adminOnly(200, 403), anonymous: 401 } },
];
