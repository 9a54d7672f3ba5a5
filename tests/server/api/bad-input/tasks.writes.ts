import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const task = ({ ids }: BadInputContext) => ({
  template_id: ids.spareTemplate, message: 'm', environment: '{}', arguments: '[]', git_branch: 'main', debug: false, dry_run: false, diff: false, limit: '',
});

/** Every POST of tasks that reads a body. */
export const TASK_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/project/{id}/tasks', path: (x) => `${p(x)}/tasks`, valid: task,
    fields: { template_id: 'number', message: 'string', environment: 'json', arguments: 'string', git_branch: 'string', debug: 'boolean', dry_run: 'boolean', diff: 'boolean' },
    maxLength: { message: 2000, environment: 1_000_000, arguments: 65535 },
    extra: () => [['a template of no project', { template_id: 999999 }], ['a build task id beyond the column', { build_task_id: 99_999_999_999 }],
      ['a limit list of numbers', { limit: [1, 2] }], ['a limit list item too long', { limit: ['x'.repeat(1025)] }]],
  },
  { route: 'POST /api/project/{id}/tasks/{task}/stop', path: (x) => `${p(x)}/tasks/${x.ids.waitingTask}/stop`, valid: () => ({ force: false }), fields: { force: 'boolean' } },
  {
    route: 'POST /api/project/{id}/templates/{t}/stop_all_tasks', path: (x) => `${p(x)}/templates/${x.ids.template}/stop_all_tasks`,
    valid: () => ({ force: false }), fields: { force: 'boolean' },
  },
];
