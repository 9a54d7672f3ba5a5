import type { ConsoleServer } from './console-server.ts';
import { adminApi, insertScriptProject, waitForTask } from './real-tasks.ts';

/** Statuses the history shows, with a start this many seconds ago and a duration (null: still running). */
const SAMPLE_TASKS: [string, number, number | null][] = [
  ['success', 90, 1], ['error', 3600, 125], ['stopped', 86400 * 2, 3720], ['waiting_confirmation', 600, null], ['running', 30, null], ['waiting', 0, null],
];

/**
 * A project with one real finished task (a log to open) and tasks of every kind of status, and
 * the console routes of the look-and-feel tests.
 * @example const look = await insertLookProject(server); for (const route of look.routes) ...
 */
export async function insertLookProject(server: ConsoleServer) {
  const api = await adminApi(server);
  const fx = await insertScriptProject(server, { 'build.sh': 'for i in $(seq 1 40); do printf "step %s: \\033[32mok\\033[0m a fairly long line of build output that goes on past the width of a phone\\n" "$i"; done\n' }, 'build.sh', 'Build web');
  const taskId = await api.runTask(fx.project.id, { template_id: fx.template.id, message: 'Nightly build' });
  await waitForTask(server.deps.db, taskId);
  // The sample rows below are for looking at, not for running: the engine stops first.
  await server.engine.stop();
  const now = Date.now();
  const iso = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();
  await server.deps.db.insertInto('task').values(SAMPLE_TASKS.map(([status, ago, lasted], i) => ({
    project_id: fx.project.id, template_id: fx.template.id, status, user_id: fx.adminId, playbook: '', environment: '{}',
    message: `Release ${i + 1}`, commit_message: 'Bump the web server to the next minor version', git_branch: 'main', params: '{}',
    created: iso(ago), start: status === 'waiting' ? null : iso(ago), end: lasted === null ? null : iso(ago - lasted),
  }))).execute();
  const id = fx.project.id;
  const routes: [string, string][] = [
    ['history', `/project/${id}/history`],
    ['task-log', `/project/${id}/history?t=${taskId}`],
    ['task-details', `/project/${id}/history?t=${taskId}&tab=details`],
    ['task-summary', `/project/${id}/history?t=${taskId}&tab=summary`],
    ['kiosk', `/project/${id}/history?kiosk=1`],
    ['stats', `/project/${id}/stats`],
    ['activity', `/project/${id}/activity`],
    ['settings', `/project/${id}/settings`],
    ['settings-confirm', `/project/${id}/settings?confirm=delete`],
    ['active-tasks', '/tasks'],
    ['new-project', '/project/new'],
    ['new-project-dialog', `/project/${id}/history?new_project`],
    ['restore', '/project/restore'],
    ['components', '/components'],
    ['components-dialog', '/components?dialog=1'],
  ];
  return { api, projectId: id, taskId, routes };
}
