import type { WriteRoute } from '../../../support/bad-input.ts';

/** Every POST/PUT of issue 2: sign-in, tokens, users, projects, members. */
export const FOUNDATION_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/auth/login', path: () => '/api/auth/login',
    valid: ({ w }) => ({ auth: w.users.guest.username, password: w.password }),
    fields: { auth: 'string', password: 'string' }, maxLength: { password: 1024 },
  },
  {
    route: 'POST /api/user/tokens', path: () => '/api/user/tokens',
    valid: () => ({ name: 'CI', expires_at: new Date(Date.now() + 86_400_000).toISOString() }),
    fields: { name: 'string', expires_at: 'string' },
  },
  {
    route: 'POST /api/board/tokens', path: () => '/api/board/tokens',
    valid: ({ w }) => ({ name: 'Wall', project_ids: [w.projectId], by: 'view', view_id: null }),
    fields: { name: 'string', project_ids: 'array', by: 'string', view_id: 'number' },
  },
  {
    route: 'POST /api/users', path: () => '/api/users',
    valid: () => ({ name: 'N', username: 'fresh-user', email: 'fresh@example.test', password: 'pw-1', alert: false, admin: false, external: false }),
    fields: { name: 'string', username: 'string', email: 'string', password: 'string', alert: 'boolean', admin: 'boolean', external: 'boolean' },
    maxLength: { password: 1024 },
  },
  {
    route: 'PUT /api/users/{id}', path: ({ w }) => `/api/users/${w.users.spare.id}`,
    valid: ({ w }) => ({ name: 'N', username: w.users.spare.username, email: w.users.spare.email, alert: true, admin: false }),
    fields: { name: 'string', username: 'string', email: 'string', alert: 'boolean', admin: 'boolean' },
  },
  {
    route: 'POST /api/users/{id}/password', path: ({ w }) => `/api/users/${w.users.spare.id}/password`,
    valid: () => ({ password: 'new-password' }), fields: { password: 'string' }, maxLength: { password: 1024 },
  },
  {
    route: 'POST /api/projects', path: () => '/api/projects',
    valid: () => ({ name: 'P', alert: false, alert_chat: 'chat', max_parallel_tasks: 0, demo: false }),
    fields: { name: 'string', alert: 'boolean', alert_chat: 'string', max_parallel_tasks: 'number', demo: 'boolean' },
  },
  {
    route: 'PUT /api/project/{id}', path: ({ w }) => `/api/project/${w.projectId}`,
    valid: ({ w }) => ({ id: w.projectId, name: 'P2', alert: true, alert_chat: 'chat', max_parallel_tasks: 1, task_retention_days: 30, task_retention_count: 5, output_retention_days: 7 }),
    fields: {
      id: 'number', name: 'string', alert: 'boolean', alert_chat: 'string', max_parallel_tasks: 'number',
      task_retention_days: 'number', task_retention_count: 'number', output_retention_days: 'number',
    },
  },
  {
    route: 'POST /api/project/{id}/users', path: ({ w }) => `/api/project/${w.projectId}/users`,
    valid: ({ w }) => ({ user_id: w.users.spare.id, role: 'guest' }), fields: { user_id: 'number', role: 'string' },
  },
  {
    route: 'PUT /api/project/{id}/users/{user_id}', path: ({ w }) => `/api/project/${w.projectId}/users/${w.users.extra.id}`,
    valid: () => ({ role: 'manager' }), fields: { role: 'string' },
  },
];

