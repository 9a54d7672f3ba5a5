import { join } from 'node:path';
import type { Insertable } from 'kysely';
import type { TaskRow, TemplateTable } from '../../src/server/db/schema.ts';
import { enqueueTask } from '../../src/server/domain/tasks/enqueue-task.ts';
import type { StartPath } from '../../src/server/domain/tasks/launch/start-paths.ts';
import { fireSchedule } from '../../src/server/scheduler/fire-schedule.ts';
import { autorunDeploys } from '../../src/server/engine/queue/autorun-deploys.ts';
import { initialLaunchValues, launchBody, type LaunchTemplate } from '../../src/console/launch-model.ts';
import { rerunBody } from '../../src/console/task-rerun.ts';
import type { Task } from '../../src/console/types.ts';
import { insertMember, insertTemplate } from './fixtures.ts';
import { createGitRepo } from './git-repo.ts';
import { ADMIN, type Auth, type TestServer, type TestResponse } from './harness.ts';
import { insertAdminProject, insertIntegration, insertSchedule, listDeliveryRows } from './trigger-fixtures.ts';

/**
 * The start paths of the launch matrix (tests/server/domain/tasks/launch-matrix.test.ts), each
 * driven the way the world uses it: the API by id and by name, the launch dialog's and re-run's
 * own request bodies, the bulk action, cron, one-shot and commit-check schedules, a webhook
 * delivery, a build's autorun and a workflow node. Each reads a refusal where that path records it.
 */

/** What a path can ask for, beyond starting the template. */
export type Carry = 'survey' | 'build' | 'buildless' | 'branch' | 'limit' | 'inventory' | 'arguments' | 'groups'
  /** a person starts it, so their role counts */
  | 'person'
  /** the values are the caller's own (not a saved configuration's), judged by the caller's role */
  | 'caller-values'
  /** can ask for what the template does not offer (the launch dialog cannot) */
  | 'unallowed'
  /** can set variables outside the survey */
  | 'stray'
  /** nobody presses it (a schedule, a webhook): a template's rate limit for triggers counts */
  | 'trigger'
  /** it acts for someone, whose template grants count: the person starting, or the trigger's owner (who last saved the schedule or integration) */
  | 'owned';

/** What a case asks for. */
export interface Ask {
  vars?: Record<string, string>;
  build?: 'good' | 'failed';
  branch?: string;
  limit?: string;
  inventory?: boolean;
  arguments?: string[];
  /** the world's second variable group instead of the template's */
  groups?: boolean;
}

/** The template a case starts (made anew for every path). */
export interface TemplateSpec {
  survey?: Record<string, unknown>[];
  deploy?: boolean;
  disabled?: boolean;
  allow?: Partial<Record<'branch' | 'limit' | 'inventory' | 'arguments' | 'groups', boolean>>;
  /** the template's concurrency limit and policy, with one task of it already queued */
  busy?: { limit: number; policy: 'queue' | 'cancel_previous' | 'refuse' };
  /** the template's rate limit for triggers, with one task of it already queued */
  rateLimit?: { starts: number; window: string };
  /** the inventories a start may choose: the one a case asks for, or only the world's other one */
  allowedInventories?: 'asked' | 'other';
  /** the template's grants: to a role, or to one of the world's callers (issue 52) */
  grants?: { role?: string; user?: Caller; run: boolean }[];
}

export interface Subject {
  id: number;
  name: string;
  buildTemplateId: number | null;
  buildTemplateName: string;
  /** ids of the builds `Ask.build` names */
  builds: { good: number; failed: number } | null;
  /** the task already queued for a `busy` or `rateLimit` template */
  busyTaskId?: number;
}

/** Who starts, or whom a trigger acts for; `nobody`: not signed in, a trigger without an owner. */
export type Caller = 'admin' | 'task_runner' | 'guest' | 'nobody';

/** How a start ended, read where the path shows it. */
export interface Verdict {
  task: TaskRow | null;
  /** the refusal's text; '' for an HTTP 403 (bodiless, as Semaphore answers a role that may not) */
  refusal: string | null;
  forbidden?: boolean;
  /** the task's log when it started (what was not applied) */
  log: string[];
}

export interface World {
  s: TestServer;
  projectId: number;
  inventoryId: number;
  /** an inventory no case asks for */
  otherInventoryId: number;
  repositoryId: number;
  /** a variable group no template has */
  groupId: number;
  auth: Record<Caller, Auth>;
  users: Record<Caller, number | null>;
  seq: number;
}

export interface StartDriver {
  /** the matrix row */
  name: string;
  path: StartPath;
  carries: readonly Carry[];
  /** starts deploy templates only (the template is made a deploy with autorun; its build given) */
  deployOnly?: boolean;
  start(w: World, subject: Subject, ask: Ask, as: Caller): Promise<Verdict>;
}

/** A project with an admin, a task runner and a guest signed in. */
export async function buildLaunchWorld(s: TestServer): Promise<World> {
  const f = await insertAdminProject(s);
  const runner = await insertMember(s.deps.db, f.project.id, 'matrix-runner', 'task_runner');
  const guest = await insertMember(s.deps.db, f.project.id, 'matrix-guest', 'guest');
  const auth = {
    admin: await s.login(ADMIN.login, ADMIN.password),
    task_runner: await s.login('matrix-runner', 'member-password-1'),
    guest: await s.login('matrix-guest', 'member-password-1'),
    nobody: {},
  };
  const group = await s.deps.db.insertInto('environment').values({ project_id: f.project.id, name: 'Other group', json: '{}', env: null, password: null })
    .returning('id').executeTakeFirstOrThrow();
  const other = await s.deps.db.insertInto('inventory').values({
    project_id: f.project.id, name: 'Other inventory', type: 'static', inventory: 'elsewhere', ssh_key_id: f.inventory.ssh_key_id, become_key_id: null, repository_id: null, holder_id: null,
  }).returning('id').executeTakeFirstOrThrow();
  return {
    s, projectId: f.project.id, inventoryId: f.inventory.id, otherInventoryId: other.id, repositoryId: f.repository.id, groupId: group.id, auth,
    users: { admin: f.adminId, task_runner: runner.id, guest: guest.id, nobody: null }, seq: 0,
  };
}

/** Makes the case's template (and, for a deploy, its build template with a good and a failed build). */
export async function makeSubject(w: World, name: string, spec: TemplateSpec, autorun = false): Promise<Subject> {
  const { db } = w.s.deps;
  const allow = spec.allow ?? {};
  const fields: Partial<Insertable<TemplateTable>> & { name: string } = {
    name, survey_vars: JSON.stringify(spec.survey ?? []), disabled: spec.disabled ? 1 : 0,
    allow_override_branch_in_task: allow.branch ? 1 : 0, allow_override_args_in_task: allow.arguments ? 1 : 0,
    task_params: JSON.stringify({ allow_override_limit: Boolean(allow.limit), allow_override_inventory: Boolean(allow.inventory), allow_override_environment: Boolean(allow.groups) }),
    repository_id: w.repositoryId,
  };
  if (spec.busy) Object.assign(fields, { concurrency_limit: spec.busy.limit, concurrency_policy: spec.busy.policy });
  if (spec.rateLimit) Object.assign(fields, { rate_limit_starts: spec.rateLimit.starts, rate_limit_window: spec.rateLimit.window });
  if (!spec.deploy && !autorun) {
    const t = await insertTemplate(db, w.projectId, fields);
    if (spec.allowedInventories) {
      const inventory_id = spec.allowedInventories === 'asked' ? w.inventoryId : w.otherInventoryId;
      await db.insertInto('template_allowed_inventory').values({ template_id: t.id, inventory_id }).execute();
    }
    if (spec.grants?.length) {
      await db.insertInto('template_grant').values(spec.grants.map((g) => ({
        template_id: t.id, role: g.role ?? null, user_id: g.user ? w.users[g.user] : null, can_run: g.run ? 1 : 0,
      }))).execute();
    }
    const busyTaskId = spec.busy || spec.rateLimit ? (await enqueueTask(w.s.deps, { projectId: w.projectId, templateId: t.id, userId: w.users.admin })).id : undefined;
    return { id: t.id, name: t.name, buildTemplateId: null, buildTemplateName: '', builds: null, busyTaskId };
  }
  const build = await insertTemplate(db, w.projectId, { name: `${name} build`, type: 'build', start_version: '1.0.0', repository_id: w.repositoryId });
  const good = await finishedTask(w, build.id, 'success');
  const failed = await finishedTask(w, build.id, 'error');
  const t = await insertTemplate(db, w.projectId, { ...fields, type: 'deploy', build_template_id: build.id, autorun: autorun ? 1 : 0 });
  return { id: t.id, name: t.name, buildTemplateId: build.id, buildTemplateName: build.name, builds: { good: good.id, failed: failed.id } };
}

async function finishedTask(w: World, templateId: number, status: string): Promise<TaskRow> {
  const task = await enqueueTask(w.s.deps, { projectId: w.projectId, templateId, userId: w.users.admin });
  return w.s.deps.db.updateTable('task').set({ status }).where('id', '=', task.id).returningAll().executeTakeFirstOrThrow();
}

async function taskVerdict(w: World, id: number): Promise<Verdict> {
  const { db } = w.s.deps;
  const task = await db.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const log = await db.selectFrom('task_output').select('output').where('task_id', '=', id).orderBy('id').execute();
  return { task, refusal: null, log: log.map((l) => l.output) };
}

const refused = (refusal: string): Verdict => ({ task: null, refusal, log: [] });

async function httpVerdict(w: World, res: TestResponse): Promise<Verdict> {
  if (res.status === 201) return taskVerdict(w, res.body.id);
  if (res.status === 403) return { task: null, refusal: res.text, forbidden: true, log: [] };
  if (res.status === 400 || res.status === 409) return refused(res.body.error);
  throw new Error(`unexpected answer ${res.status}: ${res.text}`);
}

const buildId = (subject: Subject, ask: Ask) => (ask.build && subject.builds ? subject.builds[ask.build] : undefined);

/** The case's values as a POST /tasks body. */
function apiValues(w: World, subject: Subject, ask: Ask): Record<string, unknown> {
  return {
    ...(ask.vars ? { environment: JSON.stringify(ask.vars) } : {}),
    ...(ask.build ? { build_task_id: buildId(subject, ask) } : {}),
    ...(ask.branch ? { git_branch: ask.branch } : {}),
    ...(ask.limit ? { limit: ask.limit } : {}),
    ...(ask.inventory ? { inventory_id: w.inventoryId } : {}),
    ...(ask.arguments ? { arguments: JSON.stringify(ask.arguments) } : {}),
    ...(ask.groups ? { environment_ids: [w.groupId] } : {}),
  };
}

/** The case's values as a schedule's or integration's stored task_params (Semaphore's TaskParams). */
function storedParams(w: World, ask: Ask): Record<string, unknown> {
  return {
    ...(ask.vars ? { environment: JSON.stringify(ask.vars) } : {}),
    ...(ask.branch ? { git_branch: ask.branch } : {}),
    ...(ask.limit ? { params: { limit: ask.limit.split(',') } } : {}),
    ...(ask.inventory ? { inventory_id: w.inventoryId } : {}),
    ...(ask.arguments ? { arguments: JSON.stringify(ask.arguments) } : {}),
    ...(ask.groups ? { environment_ids: [w.groupId] } : {}),
  };
}

const tasksPath = (w: World) => `/api/project/${w.projectId}/tasks`;

const api: StartDriver = {
  name: 'POST /tasks by template_id', path: 'api',
  carries: ['survey', 'build', 'buildless', 'branch', 'limit', 'inventory', 'arguments', 'groups', 'person', 'caller-values', 'unallowed', 'stray', 'owned'],
  start: async (w, subject, ask, as) => httpVerdict(w, await w.s.call('POST', tasksPath(w), { template_id: subject.id, ...apiValues(w, subject, ask) }, w.auth[as])),
};

const apiByName: StartDriver = {
  name: 'POST /tasks by template_name', path: 'api',
  carries: api.carries,
  start: async (w, subject, ask, as) => httpVerdict(w, await w.s.call('POST', tasksPath(w), { template_name: subject.name, ...apiValues(w, subject, ask) }, w.auth[as])),
};

/** The body the console's launch dialog posts (launch-model.ts), from the values typed into it. */
const dialog: StartDriver = {
  name: 'launch dialog', path: 'api',
  carries: ['survey', 'build', 'buildless', 'branch', 'limit', 'inventory', 'arguments', 'groups', 'person', 'caller-values', 'owned'],
  async start(w, subject, ask, as) {
    const template = (await w.s.call('GET', `/api/project/${w.projectId}/templates/${subject.id}`, undefined, w.auth.admin)).body as LaunchTemplate;
    const values = initialLaunchValues(template);
    Object.assign(values.vars, ask.vars ?? {});
    if (ask.build) values.build_task_id = String(buildId(subject, ask));
    if (ask.branch) values.git_branch = ask.branch;
    if (ask.limit) values.limit = ask.limit;
    if (ask.inventory) values.inventory_id = String(w.inventoryId);
    if (ask.arguments) values.arguments = ask.arguments.join('\n');
    if (ask.groups) values.environment_ids = String(w.groupId);
    return httpVerdict(w, await w.s.call('POST', tasksPath(w), launchBody(template, values), w.auth[as]));
  },
};

/** Re-run (the console's task-rerun.ts) of an earlier task that asked for the case's values. */
const rerun: StartDriver = {
  name: 're-run', path: 'api',
  carries: ['survey', 'build', 'buildless', 'branch', 'inventory', 'arguments', 'person', 'caller-values', 'unallowed', 'stray', 'owned'],
  async start(w, subject, ask, as) {
    const earlier = await enqueueTask(w.s.deps, {
      projectId: w.projectId, templateId: subject.id, userId: w.users.admin, environment: ask.vars ?? {}, buildTaskId: buildId(subject, ask) ?? null,
      gitBranch: ask.branch ?? null, inventoryId: ask.inventory ? w.inventoryId : null, arguments: ask.arguments ? JSON.stringify(ask.arguments) : null,
    });
    await w.s.deps.db.updateTable('task').set({ status: 'success' }).where('id', '=', earlier.id).execute();
    const shown = (await w.s.call('GET', `${tasksPath(w)}/${earlier.id}`, undefined, w.auth.admin)).body as Task;
    return httpVerdict(w, await w.s.call('POST', tasksPath(w), rerunBody(shown), w.auth[as]));
  },
};

const bulk: StartDriver = {
  name: 'bulk run', path: 'bulk', carries: ['buildless', 'person', 'caller-values', 'owned'],
  async start(w, subject, _ask, as) {
    const res = await w.s.call('POST', `/api/project/${w.projectId}/templates/bulk`, { action: 'run', template_ids: [subject.id] }, w.auth[as]);
    if (res.status === 403) return { task: null, refusal: res.text, forbidden: true, log: [] };
    if (res.status !== 200) throw new Error(`bulk answered ${res.status}: ${res.text}`);
    const [result] = res.body.results;
    return result.ok ? taskVerdict(w, result.task_id) : refused(result.error);
  },
};

/** A due time of its own for each firing (claims are per schedule and time). */
const nextDue = (w: World) => new Date(Date.UTC(2026, 0, 1, 0, ++w.seq));

/** Fires a schedule owned by `as` (as if they saved it last). */
async function fire(w: World, as: Caller, values: Parameters<typeof insertSchedule>[1]): Promise<Verdict> {
  const schedule = await insertSchedule(w.s.deps.db, { ...values, owner_id: w.users[as] });
  const task = await fireSchedule(w.s.deps, schedule, nextDue(w));
  if (task) return taskVerdict(w, task.id);
  const shown = (await w.s.call('GET', `/api/project/${w.projectId}/schedules/${schedule.id}`, undefined, w.auth.admin)).body;
  return refused(shown.last_error);
}

const scheduleCarries: Carry[] = ['survey', 'buildless', 'branch', 'limit', 'inventory', 'arguments', 'groups', 'unallowed', 'stray', 'trigger', 'owned'];

const cronSchedule: StartDriver = {
  name: 'cron schedule', path: 'schedule', carries: scheduleCarries,
  start: (w, subject, ask, as) => fire(w, as, { project_id: w.projectId, template_id: subject.id, task_params: JSON.stringify(storedParams(w, ask)) }),
};

const oneShotSchedule: StartDriver = {
  name: 'one-shot schedule', path: 'schedule', carries: scheduleCarries,
  start: (w, subject, ask, as) => fire(w, as, {
    project_id: w.projectId, template_id: subject.id, type: 'run_at', cron_format: '', run_at: '2026-01-01T00:00:00Z', task_params: JSON.stringify(storedParams(w, ask)),
  }),
};

const commitCheck: StartDriver = {
  name: 'commit check', path: 'schedule', carries: scheduleCarries,
  async start(w, subject, ask, as) {
    const { db } = w.s.deps;
    const repo = createGitRepo(join(w.s.tmp, `commits-${++w.seq}`), { 'run.sh': 'echo hi' });
    const key = await db.selectFrom('repository').select('ssh_key_id').where('id', '=', w.repositoryId).executeTakeFirstOrThrow();
    const repository = await db.insertInto('repository').values({ project_id: w.projectId, name: `commits ${w.seq}`, git_url: repo.path, git_branch: 'main', ssh_key_id: key.ssh_key_id })
      .returning('id').executeTakeFirstOrThrow();
    const verdict = await fire(w, as, { project_id: w.projectId, template_id: subject.id, repository_id: repository.id, task_params: JSON.stringify(storedParams(w, ask)) });
    if (verdict.task && verdict.task.commit_hash !== repo.hash) throw new Error(`commit check started ${verdict.task.commit_hash}, not the head ${repo.hash}`);
    return verdict;
  },
};

const WEBHOOK_FAILED = 'failed to start task: ';

/** A delivery whose payload carries the survey answers and the branch, extracted by the integration. */
const webhook: StartDriver = {
  name: 'webhook', path: 'webhook', carries: ['survey', 'buildless', 'branch', 'limit', 'inventory', 'arguments', 'groups', 'unallowed', 'stray', 'trigger', 'owned'],
  async start(w, subject, ask, as) {
    const { limit, inventory, arguments: args, groups } = ask;
    const { integration, alias } = await insertIntegration(w.s, w.projectId, subject.id, {
      task_params: storedParams(w, { limit, inventory, arguments: args, groups }),
      values: [
        ...Object.keys(ask.vars ?? {}).map((name) => ({ value_source: 'body', key: `vars.${name}`, variable: name })),
        { value_source: 'body', key: 'branch', variable: 'git_branch', variable_type: 'task' },
      ],
    });
    // owned by `as`, as if they saved it last
    await w.s.deps.db.updateTable('integration').set({ owner_id: w.users[as] }).where('id', '=', integration.id).execute();
    const res = await w.s.api.request(`/api/integrations/${alias}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ vars: ask.vars ?? {}, ...(ask.branch ? { branch: ask.branch } : {}) }),
    });
    // 429: a template's rate limit refused it (the delivery log says so, as for any refusal)
    if (res.status !== 204 && res.status !== 429) throw new Error(`webhook answered ${res.status}`);
    const [delivery] = await listDeliveryRows(w.s.deps.db, integration.id);
    if (delivery?.task_id) {
      const verdict = await taskVerdict(w, delivery.task_id);
      if (delivery.reason !== ['matched', ...verdict.log].join('; ')) throw new Error(`the delivery record says ${delivery.reason}`);
      return verdict;
    }
    if (!delivery?.reason.startsWith(WEBHOOK_FAILED)) throw new Error(`no start and no reason: ${delivery?.reason}`);
    return refused(delivery.reason.slice(WEBHOOK_FAILED.length));
  },
};

/** After a successful build: its deploy templates with autorun start; a refusal goes to the build's log. */
const autorun: StartDriver = {
  name: 'autorun after a build', path: 'autorun', carries: [], deployOnly: true,
  async start(w, subject) {
    const build = await w.s.deps.db.selectFrom('task').selectAll().where('id', '=', subject.builds!.good).executeTakeFirstOrThrow();
    const before = await w.s.deps.db.selectFrom('task_output').select('id').where('task_id', '=', build.id).orderBy('id', 'desc').executeTakeFirst();
    const [started] = await autorunDeploys(w.s.deps, build);
    if (started) {
      const verdict = await taskVerdict(w, started);
      if (verdict.task!.build_task_id !== build.id) throw new Error('autorun did not pass its build on');
      return verdict;
    }
    const lines = await w.s.deps.db.selectFrom('task_output').select('output').where('task_id', '=', build.id).where('id', '>', before?.id ?? 0).orderBy('id').execute();
    const prefix = `Autorun: deploy template "${subject.name}" not started: `;
    if (lines.length !== 1 || !lines[0]!.output.startsWith(prefix)) throw new Error(`the build's log says ${JSON.stringify(lines)}`);
    return refused(lines[0]!.output.slice(prefix.length));
  },
};

/**
 * A workflow of one task node whose task params ask for the case's values, run by `as`. A
 * person's role is checked when the node starts: for that, an approval comes first, the person
 * is made a guest meanwhile, and the admin approves.
 */
const workflow: StartDriver = {
  name: 'workflow node', path: 'workflow', carries: ['survey', 'buildless', 'branch', 'limit', 'inventory', 'arguments', 'groups', 'person', 'unallowed', 'stray', 'owned'],
  async start(w, subject, ask, as) {
    const base = `/api/project/${w.projectId}/workflows`;
    const params = {
      ...(ask.vars ? { environment: ask.vars } : {}), ...(ask.branch ? { git_branch: ask.branch } : {}), ...(ask.limit ? { limit: ask.limit } : {}),
      ...(ask.inventory ? { inventory_id: w.inventoryId } : {}), ...(ask.arguments ? { arguments: JSON.stringify(ask.arguments) } : {}),
      ...(ask.groups ? { environment_ids: [w.groupId] } : {}),
    };
    const gate = as !== 'admin';
    const created = await w.s.call('POST', base, {
      name: `flow ${++w.seq}`,
      nodes: [
        ...(gate ? [{ id: 1, kind: 'approval', name: 'gate' }] : []),
        { id: 2, kind: 'task', name: 'step', template_id: subject.id, task_params: params },
      ],
      edges: gate ? [{ source_node_id: 1, destination_node_id: 2 }] : [],
    }, w.auth.admin);
    if (created.status !== 201) throw new Error(`workflow not saved: ${created.text}`);
    const starter = as === 'admin' ? 'admin' : 'task_runner';
    const run = await w.s.call('POST', `${base}/${created.body.id}/run`, {}, w.auth[starter]);
    if (run.status !== 201) throw new Error(`run not started: ${run.text}`);
    const runPath = `${base}/${created.body.id}/runs/${run.body.id}`;
    if (gate) {
      await w.s.deps.db.updateTable('project_user').set({ role: as }).where('project_id', '=', w.projectId).where('user_id', '=', w.users.task_runner).execute();
      const gateNode = (await w.s.call('GET', runPath, undefined, w.auth.admin)).body.nodes.find((n: any) => n.node.kind === 'approval').node.id;
      const approved = await w.s.call('POST', `${runPath}/approvals/${gateNode}`, { status: 'approved' }, w.auth.admin);
      await w.s.deps.db.updateTable('project_user').set({ role: 'task_runner' }).where('project_id', '=', w.projectId).where('user_id', '=', w.users.task_runner).execute();
      if (approved.status !== 200) throw new Error(`approval refused: ${approved.text}`);
    }
    const details = (await w.s.call('GET', runPath, undefined, w.auth.admin)).body;
    const step = details.nodes.find((n: any) => n.node.kind === 'task');
    if (step.task) return taskVerdict(w, step.task.id);
    if (step.state.status !== 'failed') throw new Error(`the node is ${step.state.status}`);
    return refused(step.state.reason);
  },
};

/** Every matrix row, by start path: a path without a row does not compile. */
export const START_DRIVERS: Record<StartPath, StartDriver[]> = {
  api: [api, apiByName, dialog, rerun],
  bulk: [bulk],
  schedule: [cronSchedule, oneShotSchedule, commitCheck],
  webhook: [webhook],
  autorun: [autorun],
  workflow: [workflow],
};
