import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const template = ({ ids }: BadInputContext) => ({
  name: 'T', app: 'bash', playbook: 'a.sh', repository_id: ids.repository, inventory_id: ids.inventory, environment_id: ids.environment,
  view_id: ids.view, survey_vars: [], vaults: [], task_params: {}, description: 'd', git_branch: 'main', autorun: false, ssh_key_ids: [], allowed_inventories: [],
});
const templateFields = {
  name: 'string', app: 'string', playbook: 'string', description: 'string', git_branch: 'string', repository_id: 'number', inventory_id: 'number',
  environment_id: 'number', view_id: 'number', survey_vars: 'array', vaults: 'array', task_params: 'object', autorun: 'boolean', ssh_key_ids: 'array', allowed_inventories: 'array',
} as const;
const templateLimits = { app: 64, playbook: 4096, description: 65535 };
const schedule = ({ ids }: BadInputContext) => ({ name: 'S', template_id: ids.template, cron_format: '* * * * *', active: false });
const scheduleFields = { name: 'string', template_id: 'number', cron_format: 'string', active: 'boolean' } as const;

/** Grant lists a template's or a view's grants refuse. */
const badGrants = (x: BadInputContext): [string, unknown][] => [
  ['a grant naming neither role nor user', { grants: [{ run: true }] }], ['a grant naming both', { grants: [{ role: 'guest', user_id: x.w.users.guest.id }] }],
  ['a role the project lacks', { grants: [{ role: 'nobody' }] }], ['a user who is no member', { grants: [{ user_id: x.w.users.spare.id }] }],
  ['a role twice', { grants: [{ role: 'guest' }, { role: 'guest' }] }], ['a user id that is text', { grants: [{ user_id: '1' }] }],
  ['run that is text', { grants: [{ role: 'guest', run: 'yes' }] }], ['201 grants', { grants: Array.from({ length: 201 }, () => ({ role: 'guest' })) }],
];

/** Every POST/PUT with a body of templates, views and schedules. */
export const TEMPLATE_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/project/{id}/templates', path: (x) => `${p(x)}/templates`, valid: template, fields: templateFields, maxLength: templateLimits,
    extra: () => [['survey_vars = "x"', { survey_vars: 'x' }], ['arguments that are not a JSON array', { name: 'T', app: 'bash', playbook: 'a', arguments: '{' }]],
  },
  // template names are unique per project: the PUT renames the spare template to a name of its own
  { route: 'PUT /api/project/{id}/templates/{t}', path: (x) => `${p(x)}/templates/${x.ids.spareTemplate}`, valid: (x) => ({ ...template(x), name: 'T2' }), fields: templateFields, maxLength: templateLimits },
  {
    route: 'PUT /api/project/{id}/templates/{t}/description', path: (x) => `${p(x)}/templates/${x.ids.template}/description`,
    valid: () => ({ description: 'x' }), fields: { description: 'string' }, maxLength: { description: 65535 },
  },
  {
    route: 'PUT /api/project/{id}/templates/{t}/grants', path: (x) => `${p(x)}/templates/${x.ids.template}/grants`,
    valid: () => ({ grants: [{ role: 'task_runner', run: true }] }), fields: { grants: 'array' },
    extra: badGrants,
  },
  {
    route: 'POST /api/project/{id}/templates/bulk', path: (x) => `${p(x)}/templates/bulk`, valid: (x) => ({ action: 'enable', template_ids: [x.ids.template] }),
    fields: { action: 'string', template_ids: 'array', view_id: 'number' },
    extra: (x) => [
      ['an unknown action', { action: 'archive', template_ids: [x.ids.template] }], ['no template', { action: 'enable', template_ids: [] }],
      ['501 templates', { action: 'enable', template_ids: Array.from({ length: 501 }, (_, i) => i + 1) }], ['a template id that is text', { action: 'enable', template_ids: ['1'] }],
      ['a template id of 0', { action: 'enable', template_ids: [0] }], ['a template of no project', { action: 'enable', template_ids: [2_000_000_000] }],
      ['a view of no project', { action: 'move', template_ids: [x.ids.template], view_id: 2_000_000_000 }],
    ],
  },
  { route: 'POST /api/project/{id}/views', path: (x) => `${p(x)}/views`, valid: () => ({ title: 'V', position: 1 }), fields: { title: 'string', position: 'number' } },
  {
    route: 'PUT /api/project/{id}/views/{v}/grants', path: (x) => `${p(x)}/views/${x.ids.view}/grants`,
    valid: () => ({ grants: [{ role: 'task_runner', run: true }] }), fields: { grants: 'array' }, extra: badGrants,
  },
  { route: 'PUT /api/project/{id}/views/{v}', path: (x) => `${p(x)}/views/${x.ids.view}`, valid: () => ({ title: 'V', position: 1 }), fields: { title: 'string', position: 'number' } },
  {
    route: 'POST /api/project/{id}/views/positions', path: (x) => `${p(x)}/views/positions`, valid: (x) => ({ [x.ids.view]: 2 }), fields: {}, keysAreData: 'its keys are view ids',
    extra: (x) => [['a position that is text', { [x.ids.view]: 'first' }], ['a key that is no id', { first: 1 }], ['an id beyond the column', { '99999999999999': 1 }], ['a huge position', { [x.ids.view]: 1e12 }]],
  },
  { route: 'POST /api/project/{id}/schedules', path: (x) => `${p(x)}/schedules`, valid: schedule, fields: scheduleFields },
  { route: 'PUT /api/project/{id}/schedules/{s}', path: (x) => `${p(x)}/schedules/${x.ids.schedule}`, valid: schedule, fields: scheduleFields },
  { route: 'PUT /api/project/{id}/schedules/{s}/active', path: (x) => `${p(x)}/schedules/${x.ids.schedule}/active`, valid: () => ({ active: true }), fields: { active: 'boolean' } },
  { route: 'POST /api/project/{id}/schedules/validate', path: (x) => `${p(x)}/schedules/validate`, valid: () => ({ cron_format: '* * * * *' }), fields: { cron_format: 'string' } },
];

