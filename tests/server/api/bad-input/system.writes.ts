import type { WriteRoute } from '../../../support/bad-input.ts';

const app = () => ({ title: 'Custom', icon: 'mdi-x', color: 'red', path: '/bin/true', args: ['-v'], active: true, priority: 1 });
const appFields = { title: 'string', icon: 'string', color: 'string', path: 'string', args: 'array', active: 'boolean', priority: 'signed' } as const;
const appLimits = { color: 64, path: 4096 };
const backup = () => ({ meta: { name: 'Restored' }, keys: [], repositories: [], inventories: [], environments: [], views: [], templates: [] });

/** Every POST/PUT of apps and restore. */
export const SYSTEM_WRITES: WriteRoute[] = [
  { route: 'POST /api/apps/{app}', path: () => '/api/apps/custom-app', valid: app, fields: appFields, maxLength: appLimits },
  { route: 'PUT /api/apps/{app}', path: () => '/api/apps/custom-app', valid: app, fields: appFields, maxLength: appLimits },
  { route: 'POST /api/apps/{app}/active', path: () => '/api/apps/bash/active', valid: () => ({ active: false }), fields: { active: 'boolean' } },
  {
    route: 'POST /api/projects/restore', path: () => '/api/projects/restore', valid: backup,
    fields: { meta: 'object', keys: 'array', repositories: 'array', inventories: 'array', environments: 'array', views: 'array', templates: 'array' },
    extra: () => [
      ['meta = null', { ...backup(), meta: null }],
      ['a template naming a missing repository', { ...backup(), templates: [{ name: 'a', repository: 'r', inventory: 'i', environment: 'e', app: 'bash', playbook: 'x' }] }],
    ],
  },
];

