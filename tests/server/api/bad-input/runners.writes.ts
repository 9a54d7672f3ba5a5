import type { WriteRoute } from '../../../support/bad-input.ts';

export const BAD_INPUT_REGISTRATION_TOKEN = 'bad-input-registration-token';

const runner = () => ({ name: 'Runner', webhook: 'http://127.0.0.1:9/hook', max_parallel_tasks: 2, active: true, tag: 'gpu', tags: ['a'], registered: true });
// max_parallel_tasks takes any integer, as Semaphore (0 or less: no limit); an empty tag is dropped
const runnerFields = { name: 'string', webhook: 'string', max_parallel_tasks: 'signed', active: 'boolean', tag: 'string', tags: 'array', registered: 'boolean' } as const;
const limits = { webhook: 1024 };
const extra = () => [
  ['webhook = "ftp://x"', { ...runner(), webhook: 'ftp://x' }],
] as [string, unknown][];

/** Every POST/PUT of project and global runners, and a runner's registration. */
export const RUNNER_WRITES: WriteRoute[] = [
  { route: 'POST /api/project/{id}/runners', path: ({ w }) => `/api/project/${w.projectId}/runners`, valid: runner, fields: runnerFields, maxLength: limits, extra },
  { route: 'PUT /api/project/{id}/runners/{runner}', path: ({ w, more }) => `/api/project/${w.projectId}/runners/${more.projectRunner}`, valid: runner, fields: runnerFields, maxLength: limits, extra },
  { route: 'POST /api/project/{id}/runners/{runner}/active', path: ({ w, more }) => `/api/project/${w.projectId}/runners/${more.projectRunner}/active`, valid: () => ({ active: false }), fields: { active: 'boolean' } },
  { route: 'POST /api/runners', path: () => '/api/runners', valid: runner, fields: runnerFields, maxLength: limits, extra },
  { route: 'PUT /api/runners/{runner}', path: ({ more }) => `/api/runners/${more.globalRunner}`, valid: runner, fields: runnerFields, maxLength: limits, extra },
  { route: 'POST /api/runners/{runner}/active', path: ({ more }) => `/api/runners/${more.globalRunner}/active`, valid: () => ({ active: false }), fields: { active: 'boolean' } },
  {
    route: 'POST /api/internal/runners', path: () => '/api/internal/runners',
    valid: () => ({ registration_token: BAD_INPUT_REGISTRATION_TOKEN, name: 'R', webhook: '', max_parallel_tasks: 1, tags: ['t'] }),
    fields: { registration_token: 'string', name: 'string', webhook: 'string', max_parallel_tasks: 'number', tags: 'array', public_key: 'string' },
    maxLength: { webhook: 1024, public_key: 4096 },
    extra: () => [['a wrong registration token', { registration_token: 'wrong' }], ['public_key not PEM', { registration_token: BAD_INPUT_REGISTRATION_TOKEN, public_key: 'abc' }]],
  },
];
