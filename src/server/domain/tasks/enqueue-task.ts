import type { Deps } from '../../deps.ts';
import type { TaskRow } from '../../db/schema.ts';
import { recordEvent } from '../events/event.repository.ts';
import { now } from '../../lib/time.ts';
import { holdTaskSecrets } from './task-secrets.ts';
import { computeBuildVersion } from './build-version.ts';
import { templateEnvironmentIds } from '../environments/environment-list.ts';
import type { Tx } from '../../db/database.ts';
import { priorityHeadStart, queueRank, type Priority } from './priority.ts';
import { sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';

/**
 * The queue rank of a task inserted now: the database's clock at the insert (seconds), less the
 * priority's head start. Taken in the insert statement, not before it, so that tasks of one
 * priority rank in the order their rows were written (their ids), however long a start waited
 * for a connection. An explicit `created` (a test ageing a task) ranks by that time instead.
 */
function rankNow(tx: Tx, priority: Priority) {
  const seconds = isPostgres(tx) ? sql<number>`extract(epoch from clock_timestamp())` : sql<number>`((julianday('now') - 2440587.5) * 86400.0)`;
  return sql<number>`(${seconds} - ${priorityHeadStart(priority)})`;
}

async function findTemplateGroupRow(tx: Tx, templateId: number) {
  return (await tx.selectFrom('template').select(['id', 'environment_id']).where('id', '=', templateId).executeTakeFirst()) ?? { id: templateId, environment_id: null };
}

/** A task to queue; who or what started it decides user_id, schedule_id or integration_id. */
export interface NewTaskInput {
  projectId: number;
  templateId: number;
  userId?: number | null;
  scheduleId?: number | null;
  integrationId?: number | null;
  buildTaskId?: number | null;
  inventoryId?: number | null;
  message?: string;
  playbook?: string;
  /** extra variables (survey values, extracted webhook values) */
  environment?: Record<string, unknown>;
  /** survey-secret values: used for the run, never stored */
  secret?: Record<string, string>;
  /**
   * `environment` and `secret` came from someone who may edit the template: Ansible may
   * template them. Otherwise (the default) they reach it marked unsafe.
   */
  trustedValues?: boolean;
  /** app task params (ansible: debug, dry_run, diff, limit, tags...; terraform: plan, destroy, auto_approve...) */
  params?: Record<string, unknown>;
  arguments?: string | null;
  gitBranch?: string | null;
  commitHash?: string | null;
  version?: string | null;
  /** the variable groups to run with, in order; the template's when left out */
  environmentIds?: number[];
  /** runs inside the queuing transaction before the insert (the launch rules' admission); throwing starts nothing */
  admit?: (tx: Tx) => Promise<void>;
  /** runs inside the queuing transaction (a workflow run claims its node there); throwing undoes the queuing */
  onInsert?: (tx: Tx, task: TaskRow) => Promise<void>;
  /** lines the task's log starts with (what the start did not apply) */
  notes?: string[];
  /** how urgent; `normal` when left out */
  priority?: Priority;
  /** when it is queued (tests give an earlier time to age a task); now when left out */
  created?: string;
  /** a webhook's task: the digest of its delivery (integration once_within) */
  triggerDigest?: string | null;
}

/**
 * Puts a task in the queue: a `waiting` row, an event, and an `update` on the bus, which
 * wakes the dispatcher. Only the launch function (launch/launch-task.ts) calls it, after its
 * rules; tests use it to put rows in place. A task of a `build` template gets the next version
 * (reference §5.9) unless one is given.
 * @example const task = await enqueueTask(deps, { projectId: 1, templateId: 3, userId: 2 });
 */
export async function enqueueTask(deps: Deps, input: NewTaskInput): Promise<TaskRow> {
  const notes = input.notes ?? [];
  const task = await deps.db.transaction().execute(async (tx) => {
    await input.admit?.(tx);
    const template = await tx.selectFrom('template').select(['name', 'type', 'start_version']).where('id', '=', input.templateId).executeTakeFirst();
    let version = input.version ?? null;
    if (input.version === undefined && template?.type === 'build') version = await computeBuildVersion(tx, input.templateId, template.start_version);
    const created = input.created ?? now();
    const priority = input.priority ?? 'normal';
    const environmentIds = input.environmentIds ?? await templateEnvironmentIds(tx, await findTemplateGroupRow(tx, input.templateId));
    const row = await tx.insertInto('task').values({
      project_id: input.projectId,
      template_id: input.templateId,
      status: 'waiting',
      user_id: input.userId ?? null,
      schedule_id: input.scheduleId ?? null,
      integration_id: input.integrationId ?? null,
      build_task_id: input.buildTaskId ?? null,
      inventory_id: input.inventoryId ?? null,
      playbook: input.playbook ?? '',
      environment: JSON.stringify(input.environment ?? {}),
      arguments: input.arguments ?? null,
      git_branch: input.gitBranch ?? null,
      message: input.message ?? '',
      commit_hash: input.commitHash ?? null,
      commit_message: '',
      version,
      params: JSON.stringify(input.params ?? {}),
      created,
      priority,
      queue_rank: input.created === undefined ? rankNow(tx, priority) : queueRank(created, priority),
      trigger_digest: input.triggerDigest ?? null,
      start: null,
      end: null,
      locked_by: null,
      trusted_values: input.trustedValues ? 1 : 0,
      environment_ids: JSON.stringify(environmentIds),
    }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, {
      projectId: row.project_id, userId: row.user_id, integrationId: row.integration_id,
      objectType: 'task', objectId: row.id, description: `Task ID ${row.id} queued for running`,
    });
    if (notes.length) await tx.insertInto('task_output').values(notes.map((output, i) => ({ task_id: row.id, time: row.created, output, line: i + 1 }))).execute();
    await holdTaskSecrets(tx, deps.secrets, row.id, input.secret ?? {});
    await input.onInsert?.(tx, row);
    return row;
  });
  deps.bus.publish({
    type: 'update', project_id: task.project_id, task_id: task.id, template_id: task.template_id,
    status: task.status, start: null, end: null, version: task.version,
  });
  for (const output of notes) deps.bus.publish({ type: 'log', project_id: task.project_id, task_id: task.id, time: task.created, output });
  return task;
}
