import { Permission, projectRead, projectWrite, type MatrixRow } from '../../../support/permission-matrix.ts';
import { insertProjectResources } from '../../../support/resource-rows.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;
const setup: MatrixRow['setup'] = (db, w) => insertProjectResources(db, w.projectId);
const read = (route: string, sub: (ids: Record<string, number>) => string): MatrixRow => ({ route, setup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, expect: projectRead() });
const write = (route: string, status: number, sub: (ids: Record<string, number>) => string, body?: (ids: Record<string, number>) => unknown, rowSetup = setup): MatrixRow => ({
  route, setup: rowSetup, path: (w, _, ids) => `${p(w)}${sub(ids)}`, body: body && ((_, __, ids) => body(ids)), expect: projectWrite(Permission.ManageResources, status),
});

/** Resources plus the workspace already attached to the template, for detach. */
const attachedSetup: MatrixRow['setup'] = async (db, w) => {
  const ids = await insertProjectResources(db, w.projectId);
  await db.insertInto('template_inventory').values({ template_id: ids.template, inventory_id: ids.workspace }).execute();
  return ids;
};

/** Templates, views and schedules × every caller: members read, ManageResources writes. */
export const TEMPLATES_MATRIX: MatrixRow[] = [
  read('GET /api/project/{id}/templates', () => '/templates'),
  read('GET /api/project/{id}/templates/{t}', (ids) => `/templates/${ids.template}`),
  read('GET /api/project/{id}/templates/{t}/tasks', (ids) => `/templates/${ids.template}/tasks`),
  read('GET /api/project/{id}/templates/{t}/tasks/last', (ids) => `/templates/${ids.template}/tasks/last`),
  read('GET /api/project/{id}/templates/{t}/schedules', (ids) => `/templates/${ids.template}/schedules`),
  read('GET /api/project/{id}/templates/{t}/refs', (ids) => `/templates/${ids.template}/refs`),
  read('GET /api/project/{id}/templates/{t}/stats', (ids) => `/templates/${ids.template}/stats`),
  read('GET /api/project/{id}/templates/{t}/survey_options', (ids) => `/templates/${ids.template}/survey_options`),
  write('POST /api/project/{id}/templates', 201, () => '/templates', (ids) => ({
    name: 'x', app: 'bash', playbook: 'a.sh', repository_id: ids.repository, inventory_id: ids.inventory, environment_id: ids.environment,
  })),
  write('PUT /api/project/{id}/templates/{t}', 204, (ids) => `/templates/${ids.template}`, () => ({ name: 'renamed' })),
  write('PUT /api/project/{id}/templates/{t}/description', 204, (ids) => `/templates/${ids.template}/description`, () => ({ description: 'x' })),
  { ...read('GET /api/project/{id}/templates/{t}/grants', (ids) => `/templates/${ids.template}/grants`), expect: projectWrite(Permission.ManageResources, 200) },
  write('PUT /api/project/{id}/templates/{t}/grants', 200, (ids) => `/templates/${ids.template}/grants`, () => ({ grants: [{ role: 'task_runner', run: true }] })),
  write('DELETE /api/project/{id}/templates/{unused t}', 204, (ids) => `/templates/${ids.spareTemplate}`),
  // one route, two role checks: run needs RunTasks (as POST /tasks), the other actions ManageResources
  { ...write('POST /api/project/{id}/templates/bulk', 200, () => '/templates/bulk', (ids) => ({ action: 'run', template_ids: [ids.template] })), expect: projectWrite(Permission.RunTasks, 200) },
  write('POST /api/project/{id}/templates/bulk', 200, () => '/templates/bulk', (ids) => ({ action: 'disable', template_ids: [ids.template, ids.spareTemplate] })),
  write('POST /api/project/{id}/templates/bulk', 200, () => '/templates/bulk', (ids) => ({ action: 'delete', template_ids: [ids.spareTemplate] })),
  write('POST /api/project/{id}/templates/{t}/inventory/{ws}/attach', 204, (ids) => `/templates/${ids.template}/inventory/${ids.workspace}/attach`),
  write('POST /api/project/{id}/templates/{t}/inventory/{ws}/set_default', 204, (ids) => `/templates/${ids.template}/inventory/${ids.workspace}/set_default`),
  write('POST /api/project/{id}/templates/{t}/inventory/{ws}/detach', 204, (ids) => `/templates/${ids.template}/inventory/${ids.workspace}/detach`, undefined, attachedSetup),
  read('GET /api/project/{id}/views', () => '/views'),
  read('GET /api/project/{id}/views/{v}', (ids) => `/views/${ids.view}`),
  read('GET /api/project/{id}/views/{v}/templates', (ids) => `/views/${ids.view}/templates`),
  write('POST /api/project/{id}/views', 201, () => '/views', () => ({ title: 'x' })),
  { ...read('GET /api/project/{id}/views/{v}/grants', (ids) => `/views/${ids.view}/grants`), expect: projectWrite(Permission.ManageResources, 200) },
  write('PUT /api/project/{id}/views/{v}/grants', 200, (ids) => `/views/${ids.view}/grants`, () => ({ grants: [{ role: 'task_runner', run: true }] })),
  write('PUT /api/project/{id}/views/{v}', 204, (ids) => `/views/${ids.view}`, () => ({ title: 'x' })),
  write('POST /api/project/{id}/views/positions', 204, () => '/views/positions', (ids) => ({ [ids.view]: 3 })),
  write('DELETE /api/project/{id}/views/{v}', 204, (ids) => `/views/${ids.view}`),
  read('GET /api/project/{id}/locks', () => '/locks'),
  read('GET /api/project/{id}/locks/{l}', (ids) => `/locks/${ids.lock}`),
  write('POST /api/project/{id}/locks', 201, () => '/locks', () => ({ name: `matrix-${Math.floor(Math.random() * 1e9)}`, capacity: 2 })),
  write('PUT /api/project/{id}/locks/{l}', 204, (ids) => `/locks/${ids.lock}`, () => ({ capacity: 3 })),
  write('DELETE /api/project/{id}/locks/{l}', 204, (ids) => `/locks/${ids.lock}`),
  read('GET /api/project/{id}/schedules', () => '/schedules'),
  read('GET /api/project/{id}/schedules/{s}', (ids) => `/schedules/${ids.schedule}`),
  write('POST /api/project/{id}/schedules', 201, () => '/schedules', (ids) => ({ name: 'x', template_id: ids.template, cron_format: '* * * * *' })),
  write('POST /api/project/{id}/schedules/validate', 200, () => '/schedules/validate', () => ({ cron_format: '* * * * *' })),
  write('PUT /api/project/{id}/schedules/{s}', 204, (ids) => `/schedules/${ids.schedule}`, () => ({ name: 'x' })),
  write('PUT /api/project/{id}/schedules/{s}/active', 204, (ids) => `/schedules/${ids.schedule}/active`, () => ({ active: true })),
  write('DELETE /api/project/{id}/schedules/{s}', 204, (ids) => `/schedules/${ids.schedule}`),
];

