import { adminOnly, Permission, projectRead, projectWrite, type MatrixRow } from '../../../support/permission-matrix.ts';
import { insertProjectResources } from '../../../support/resource-rows.ts';
import { insertTask } from '../../../support/project-rows.ts';
import { insertTemplate } from '../../../support/fixtures.ts';
import { now } from '../../../../src/server/lib/time.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
const setup: MatrixRow['setup'] = (db, w) => insertProjectResources(db, w.projectId);
const read = (route: string, sub: (ids: Record<string, number>) => string): MatrixRow => ({ route, setup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, expect: projectRead() });
const run = (route: string, status: number, sub: (ids: Record<string, number>) => string, body?: (ids: Record<string, number>) => unknown): MatrixRow => ({
  route, setup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, body: body && ((_, __, ids) => body(ids)), expect: projectWrite(Permission.RunTasks, status),
});

/** The resources, and a finished Ansible task whose PLAY RECAP has a failed host. */
const failedRunSetup: MatrixRow['setup'] = async (db, w) => {
  const ids = await insertProjectResources(db, w.projectId);
  const template = await insertTemplate(db, w.projectId, {
    name: `Play ${ids.template}`, app: 'ansible', playbook: 'site.yml', repository_id: ids.repository, inventory_id: ids.inventory, environment_id: ids.environment,
  });
  const task = await insertTask(db, { projectId: w.projectId, templateId: template.id, status: 'error' });
  await db.insertInto('task_ansible_host').values({
    task_id: task.id, project_id: w.projectId, host: 'web2', ok: 1, changed: 0, unreachable: 0, failed: 1, skipped: 0, rescued: 0, ignored: 0, created: now(),
  }).execute();
  return { ...ids, failedTask: task.id };
};

/**
 * Tasks × every caller: members read, RunTasks (owner, manager, task_runner) starts and stops,
 * only system admins delete a task (members 401, as Semaphore) or list every active task.
 */
export const TASKS_MATRIX: MatrixRow[] = [
  read('GET /api/project/{id}/tasks', () => '/tasks'),
  read('GET /api/project/{id}/tasks/last', () => '/tasks/last'),
  read('GET /api/project/{id}/tasks/{task}', (ids) => `/tasks/${ids.task}`),
  read('GET /api/project/{id}/tasks/{task}/output', (ids) => `/tasks/${ids.task}/output`),
  read('GET /api/project/{id}/tasks/{task}/raw_output', (ids) => `/tasks/${ids.task}/raw_output`),
  read('GET /api/project/{id}/tasks/{task}/output/search', (ids) => `/tasks/${ids.task}/output/search?q=ok`),
  read('GET /api/project/{id}/tasks/{task}/output/download', (ids) => `/tasks/${ids.task}/output/download`),
  read('GET /api/project/{id}/tasks/{task}/stages', (ids) => `/tasks/${ids.task}/stages`),
  read('GET /api/project/{id}/tasks/{task}/ansible/hosts', (ids) => `/tasks/${ids.task}/ansible/hosts`),
  read('GET /api/project/{id}/tasks/{task}/ansible/errors', (ids) => `/tasks/${ids.task}/ansible/errors`),
  run('POST /api/project/{id}/tasks', 201, () => '/tasks', (ids) => ({ template_id: ids.spareTemplate })),
  { ...run('POST /api/project/{id}/tasks/{failed task}/relaunch_failed', 201, (ids) => `/tasks/${ids.failedTask}/relaunch_failed`), setup: failedRunSetup },
  run('POST /api/project/{id}/tasks/{waiting task}/stop', 204, (ids) => `/tasks/${ids.waitingTask}/stop`, () => ({})),
  run('POST /api/project/{id}/tasks/{task}/confirm', 204, (ids) => `/tasks/${ids.confirmTask}/confirm`),
  run('POST /api/project/{id}/tasks/{task}/reject', 204, (ids) => `/tasks/${ids.confirmTask}/reject`),
  run('POST /api/project/{id}/templates/{t}/stop_all_tasks', 204, (ids) => `/templates/${ids.template}/stop_all_tasks`, () => ({ force: true })),
  {
    route: 'DELETE /api/project/{id}/tasks/{finished task}', setup, path: (w, _, ids) => `${p(w)}/tasks/${ids.task}`,
    expect: { ...projectRead(401), admin: 204 },
  },
  { route: 'GET /api/tasks', path: () => '/api/tasks', expect: { ...adminOnly(200, 403), anonymous: 401 } },
  { route: 'DELETE /api/tasks/{waiting task}', setup, path: (_, __, ids) => `/api/tasks/${ids.waitingTask}`, expect: { ...adminOnly(204, 403), anonymous: 401 } },
];
