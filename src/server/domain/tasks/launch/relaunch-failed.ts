import type { Db } from '../../../db/database.ts';
import type { TaskRow } from '../../../db/schema.ts';
import { badRequest } from '../../../http/errors.ts';
import { parseJsonObject } from '../../../lib/json-object.ts';
import { parseTaskEnvironmentIds } from '../../environments/environment-list.ts';
import { isFinished } from '../task-status.ts';
import { splitHostPattern } from '../ansible-host-patterns.ts';
import type { TaskInput } from '../task.ts';
import type { LaunchRule } from './launch.ts';

/** Characters that make a limit part a pattern (wildcard, regex, exclusion, intersection, range, file) rather than one host. */
const PATTERN_SIGNS = /^[!&~@]|[*?[\]]/;

/**
 * What relaunching a finished Ansible task on its failed hosts asks of the launch function:
 * the task's own values (template, inventory, variable groups, branch, commit, extra vars,
 * arguments, params) and the hosts its PLAY RECAP counted failed or unreachable. Refused (400)
 * while the task runs, for another app, and when every host passed.
 * @example const { input, hosts } = await failedHostsRelaunch(db, task); // hosts: ['web2']
 */
export async function failedHostsRelaunch(db: Db, task: TaskRow): Promise<{ input: TaskInput; hosts: string[] }> {
  if (!isFinished(task.status)) throw badRequest('the task has not finished yet');
  const template = await db.selectFrom('template').select('app').where('id', '=', task.template_id).executeTakeFirst();
  if ((template?.app || 'ansible') !== 'ansible') throw badRequest('only an Ansible task can be relaunched on its failed hosts');
  const hosts = await failedHosts(db, task.id);
  if (!hosts.length) throw badRequest('no host failed or was unreachable in this task\'s PLAY RECAP');
  const params = parseJsonObject(task.params);
  delete params.limit;
  const input: TaskInput = {
    template_id: task.template_id,
    message: task.message,
    params,
    environment: task.environment && task.environment !== '{}' ? task.environment : undefined,
    arguments: task.arguments,
    git_branch: task.git_branch,
    commit_hash: task.commit_hash,
    inventory_id: task.inventory_id,
    environment_ids: parseTaskEnvironmentIds(task.environment_ids),
  };
  return { input, hosts };
}

/** Hosts of the task's recap with a failure or unreachable, in recap order. */
export async function failedHosts(db: Db, taskId: number): Promise<string[]> {
  const rows = await db.selectFrom('task_ansible_host').select('host')
    .where('task_id', '=', taskId).where((eb) => eb.or([eb('failed', '>', 0), eb('unreachable', '>', 0)])).orderBy('id').execute();
  return [...new Set(rows.map((r) => r.host))];
}

/**
 * The relaunch's own rule, after every common one: the run's limit is exactly these hosts,
 * whatever the template lets a caller choose. A host name Ansible would read as a pattern
 * (or as several) could reach other hosts: such a relaunch is refused.
 */
export function limitToHosts(hosts: string[]): LaunchRule {
  return {
    name: 'failed hosts',
    check(launch) {
      for (const host of hosts) {
        const parts = splitHostPattern(host);
        if (parts.length !== 1 || parts[0] !== host || PATTERN_SIGNS.test(host)) throw badRequest(`limit: host ${JSON.stringify(host)} would not be read by Ansible as one host`);
      }
      launch.task.params = { ...(launch.task.params ?? {}), limit: hosts };
    },
  };
}
