import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const key = () => ({ name: 'K', type: 'login_password', login_password: { login: 'u', password: 'p' } });
const keyFields = { name: 'string', type: 'string', login_password: 'object', override_secret: 'boolean' } as const;
const repository = ({ ids }: BadInputContext) => ({ name: 'R', git_url: '/srv/r', git_branch: 'main', ssh_key_id: ids.key });
const repositoryFields = { name: 'string', git_url: 'string', git_branch: 'string', ssh_key_id: 'number' } as const;
const inventory = ({ ids }: BadInputContext) => ({ name: 'I', type: 'static', inventory: 'localhost', ssh_key_id: ids.key, become_key_id: null });
const inventoryFields = { name: 'string', type: 'string', inventory: 'string', ssh_key_id: 'number', become_key_id: 'number' } as const;
const environment = () => ({ name: 'E', json: '{"a":1}', env: '{}', password: 'pw', secrets: [] });
const environmentFields = { name: 'string', json: 'json', env: 'json', password: 'string', secrets: 'array' } as const;
const limits = { git_url: 2048, inventory: 1024 * 1024, type: 64, password: 65535, json: 1024 * 1024, env: 1024 * 1024 };

const tfAlias = () => ({ auth_key_id: null });

/** Every POST/PUT of keys, repositories, inventories, variable groups and terraform state aliases. */
export const RESOURCE_WRITES: WriteRoute[] = [
  { route: 'POST /api/project/{id}/inventory/{ws}/terraform/aliases', path: (x) => `${p(x)}/inventory/${x.ids.workspace}/terraform/aliases`, valid: tfAlias, fields: { auth_key_id: 'number' } },
  {
    route: 'PUT /api/project/{id}/inventory/{ws}/terraform/aliases/{a}', path: (x) => `${p(x)}/inventory/${x.ids.workspace}/terraform/aliases/${x.ids.tfAlias}`,
    valid: tfAlias, fields: { auth_key_id: 'number' }, extra: (x) => [['a key that is not login_password', { auth_key_id: x.ids.key }]],
  },
  { route: 'POST /api/project/{id}/keys', path: (x) => `${p(x)}/keys`, valid: key, fields: keyFields },
  { route: 'PUT /api/project/{id}/keys/{key}', path: (x) => `${p(x)}/keys/${x.ids.key}`, valid: () => ({ ...key(), override_secret: true }), fields: keyFields },
  { route: 'POST /api/project/{id}/repositories', path: (x) => `${p(x)}/repositories`, valid: repository, fields: repositoryFields, maxLength: limits },
  { route: 'PUT /api/project/{id}/repositories/{r}', path: (x) => `${p(x)}/repositories/${x.ids.repository}`, valid: repository, fields: repositoryFields, maxLength: limits },
  { route: 'POST /api/project/{id}/inventory', path: (x) => `${p(x)}/inventory`, valid: inventory, fields: inventoryFields, maxLength: limits },
  { route: 'PUT /api/project/{id}/inventory/{i}', path: (x) => `${p(x)}/inventory/${x.ids.inventory}`, valid: inventory, fields: inventoryFields, maxLength: limits },
  {
    route: 'POST /api/project/{id}/environment', path: (x) => `${p(x)}/environment`, valid: environment, fields: environmentFields, maxLength: limits,
    extra: () => [['json that is not an object', { ...environment(), json: '[1]' }], ['a secret without operation', { ...environment(), secrets: [{ name: 'S' }] }]],
  },
  {
    route: 'PUT /api/project/{id}/environment/{e}', path: (x) => `${p(x)}/environment/${x.ids.environment}`, valid: environment, fields: environmentFields, maxLength: limits,
    extra: () => [['env that is not JSON', { ...environment(), env: 'A=1' }]],
  },
];

