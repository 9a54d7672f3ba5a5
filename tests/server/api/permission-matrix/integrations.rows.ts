import { Permission, projectRead, projectWrite, publicRoute, type MatrixRow } from '../../../support/permission-matrix.ts';
import { aliasOf, insertProjectResources } from '../../../support/resource-rows.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
const setup: MatrixRow['setup'] = (db, w) => insertProjectResources(db, w.projectId);
const read = (route: string, sub: (ids: Record<string, number>) => string): MatrixRow => ({ route, setup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, expect: projectRead() });
const write = (route: string, status: number, sub: (ids: Record<string, number>) => string, body?: (ids: Record<string, number>) => unknown): MatrixRow => ({
  route, setup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, body: body && ((_, __, ids) => body(ids)), expect: projectWrite(Permission.ManageResources, status),
});
const matcher = { name: 'm', match_type: 'header', key: 'k', method: 'equals', value: 'v' };
const value = { name: 'v', value_source: 'header', key: 'k', variable: 'V' };

/**
 * Integrations, their matchers, values, aliases and deliveries × every caller, plus the public
 * webhook endpoint (no session: the alias is the credential).
 */
export const INTEGRATIONS_MATRIX: MatrixRow[] = [
  read('GET /api/project/{id}/integrations', () => '/integrations'),
  read('GET /api/project/{id}/integrations/{i}', (ids) => `/integrations/${ids.integration}`),
  read('GET /api/project/{id}/integrations/{i}/refs', (ids) => `/integrations/${ids.integration}/refs`),
  read('GET /api/project/{id}/integrations/{i}/deliveries', (ids) => `/integrations/${ids.integration}/deliveries`),
  read('GET /api/project/{id}/integrations/{i}/matchers', (ids) => `/integrations/${ids.integration}/matchers`),
  read('GET /api/project/{id}/integrations/{i}/matchers/{m}', (ids) => `/integrations/${ids.integration}/matchers/${ids.matcher}`),
  read('GET /api/project/{id}/integrations/{i}/values', (ids) => `/integrations/${ids.integration}/values`),
  read('GET /api/project/{id}/integrations/{i}/values/{v}', (ids) => `/integrations/${ids.integration}/values/${ids.value}`),
  // alias URLs are the webhooks' credentials: listed only to those who may change the webhooks
  write('GET /api/project/{id}/integrations/{i}/aliases', 200, (ids) => `/integrations/${ids.integration}/aliases`),
  write('GET /api/project/{id}/integrations/aliases', 200, () => '/integrations/aliases'),
  write('POST /api/project/{id}/integrations', 201, () => '/integrations', (ids) => ({ name: 'x', template_id: ids.template })),
  write('PUT /api/project/{id}/integrations/{i}', 204, (ids) => `/integrations/${ids.integration}`, () => ({ name: 'x' })),
  write('DELETE /api/project/{id}/integrations/{i}', 204, (ids) => `/integrations/${ids.integration}`),
  write('POST /api/project/{id}/integrations/{i}/matchers', 200, (ids) => `/integrations/${ids.integration}/matchers`, () => matcher),
  write('PUT /api/project/{id}/integrations/{i}/matchers/{m}', 204, (ids) => `/integrations/${ids.integration}/matchers/${ids.matcher}`, () => ({ value: 'w' })),
  write('DELETE /api/project/{id}/integrations/{i}/matchers/{m}', 204, (ids) => `/integrations/${ids.integration}/matchers/${ids.matcher}`),
  write('POST /api/project/{id}/integrations/{i}/values', 201, (ids) => `/integrations/${ids.integration}/values`, () => value),
  write('PUT /api/project/{id}/integrations/{i}/values/{v}', 204, (ids) => `/integrations/${ids.integration}/values/${ids.value}`, () => ({ variable: 'W' })),
  write('DELETE /api/project/{id}/integrations/{i}/values/{v}', 204, (ids) => `/integrations/${ids.integration}/values/${ids.value}`),
  write('POST /api/project/{id}/integrations/aliases', 200, () => '/integrations/aliases'),
  write('DELETE /api/project/{id}/integrations/aliases/{a}', 204, (ids) => `/integrations/aliases/${ids.projectAlias}`),
  write('POST /api/project/{id}/integrations/{i}/aliases', 200, (ids) => `/integrations/${ids.integration}/aliases`),
  write('DELETE /api/project/{id}/integrations/{i}/aliases/{a}', 204, (ids) => `/integrations/${ids.integration}/aliases/${ids.integrationAlias}`),
  { route: 'POST /api/integrations/{alias}', setup, path: (w) => `/api/integrations/${aliasOf(w.projectId, 'integration')}`, body: () => ({ ref: 'main' }), expect: publicRoute(204) },
  { route: 'GET /api/integrations/{alias}', setup, path: (w) => `/api/integrations/${aliasOf(w.projectId, 'project')}`, expect: publicRoute(405) },
  { route: 'OPTIONS /api/integrations/{alias}', setup, path: (w) => `/api/integrations/${aliasOf(w.projectId, 'project')}`, expect: publicRoute(204) },
  { route: 'POST /api/integrations/{unknown alias}', path: () => '/api/integrations/no-such-alias', body: () => ({}), expect: publicRoute(404) },
];
