import { z } from 'zod';
import type { TaskRow } from '../../db/schema.ts';
import { parseJsonObject } from '../../lib/json-object.ts';
import { fields, INT32_MAX } from '../../http/validation.ts';
import { parseTaskEnvironmentIds } from '../environments/environment-list.ts';
import { parseWaitReason, type WaitReason } from './wait-reason.ts';
import { prioritySchema, readPriority, type Priority } from './priority.ts';

/** A task as the API returns it: 2.10's flat debug/dry_run/diff/limit next to the newer `params`. */
export interface Task {
  id: number;
  template_id: number;
  project_id: number;
  status: string;
  debug: boolean;
  dry_run: boolean;
  diff: boolean;
  playbook: string;
  environment: string;
  limit: string;
  secret: string;
  /** left out when unset, as Semaphore's own answer does (and so git_branch and inventory_id) */
  arguments?: string;
  git_branch?: string;
  user_id: number | null;
  integration_id: number | null;
  schedule_id: number | null;
  created: string;
  start: string | null;
  end: string | null;
  message: string;
  commit_hash: string | null;
  commit_message: string;
  build_task_id: number | null;
  version: string | null;
  inventory_id?: number;
  /** the variable groups the task ran with, in order (later ones override earlier ones) */
  environment_ids: number[];
  params: Record<string, unknown>;
  /** while it waits, what for (left out otherwise) */
  waiting_for?: WaitReason;
  /** Signalbox: the container image the task ran in; null: on the host */
  executor_image: string | null;
  /** Signalbox: high, normal or low (domain/tasks/priority.ts) */
  priority: Priority;
}

/** List items (Semaphore's TaskWithTpl). */
export interface TaskWithTpl extends Task {
  tpl_playbook: string;
  tpl_alias: string;
  tpl_type: string;
  tpl_app: string;
  user_name: string | null;
  build_task: Task | null;
}

/**
 * Maps a task row to the wire shape. `secret` is never stored, so it is always `{}`.
 * @example c.json(taskRowToTask(row))
 */
export function taskRowToTask(row: TaskRow): Task {
  const params = parseJsonObject(row.params);
  const limit = Array.isArray(params.limit) ? params.limit.join(',') : typeof params.limit === 'string' ? params.limit : '';
  return {
    id: row.id,
    template_id: row.template_id,
    project_id: row.project_id,
    status: row.status,
    debug: Boolean(params.debug),
    dry_run: Boolean(params.dry_run),
    diff: Boolean(params.diff),
    playbook: row.playbook,
    environment: row.environment,
    limit,
    secret: '{}',
    ...(row.arguments === null ? {} : { arguments: row.arguments }),
    ...(row.git_branch === null ? {} : { git_branch: row.git_branch }),
    user_id: row.user_id,
    integration_id: row.integration_id,
    schedule_id: row.schedule_id,
    created: row.created,
    start: row.start,
    end: row.end,
    message: row.message,
    commit_hash: row.commit_hash,
    commit_message: row.commit_message,
    build_task_id: row.build_task_id,
    version: row.version,
    ...(row.inventory_id === null ? {} : { inventory_id: row.inventory_id }),
    environment_ids: parseTaskEnvironmentIds(row.environment_ids) ?? [],
    params,
    ...waitingFor(row),
    executor_image: row.executor_image ?? null,
    priority: readPriority(row.priority),
  };
}

function waitingFor(row: TaskRow): { waiting_for?: WaitReason } {
  const reason = row.status === 'waiting' ? parseWaitReason(row.waiting_for) : null;
  return reason ? { waiting_for: reason } : {};
}

// bounded like the integer columns, so a huge id is a 400 rather than a PostgreSQL error
const optionalInt = z.number().int().max(INT32_MAX, 'no such id').nullable().optional();
const optionalText = z.string().max(65535).nullable().optional();

/**
 * Body of `POST /project/{id}/tasks`. Accepts 2.10's flat flags and the newer `params`, and the
 * read-only fields a client may echo back (ignored).
 */
export const taskInputSchema = z.strictObject({
  template_id: fields.id.optional(),
  template_name: z.string().max(255).optional(),
  message: z.string().max(2000, 'at most 2000 characters').optional(),
  params: z.record(z.string(), z.unknown()).nullable().optional(),
  environment: z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown())]).nullable().optional(),
  secret: z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown())]).nullable().optional(),
  arguments: optionalText,
  build_task_id: optionalInt,
  commit_hash: z.string().max(64).nullable().optional(),
  git_branch: z.string().max(255).nullable().optional(),
  inventory_id: optionalInt,
  environment_ids: z.array(fields.id).nullable().optional()
    .meta({ description: "Variable groups for this run, in order (later ones override earlier ones); only when the template's task_params.allow_override_environment is true" }),
  debug: z.boolean().optional(),
  debug_level: z.number().int().optional(),
  dry_run: z.boolean().optional(),
  diff: z.boolean().optional(),
  limit: z.union([z.string().max(65535), z.array(z.string().max(1024)).max(10_000)]).nullable().optional()
    .meta({ description: 'Hosts or groups to run on: a comma-separated string or a list; each part is judged as ansible-playbook reads --limit' }),
  playbook: optionalText,
  priority: prioritySchema.optional(),
  // read-only fields of the task object
  id: optionalInt,
  project_id: optionalInt,
  status: z.string().optional(),
  user_id: optionalInt,
  integration_id: optionalInt,
  schedule_id: optionalInt,
  created: z.string().optional(),
  start: z.string().nullable().optional(),
  end: z.string().nullable().optional(),
  commit_message: optionalText,
  version: optionalText,
  tpl_playbook: z.string().optional(),
  tpl_alias: z.string().optional(),
  tpl_type: z.string().optional(),
  tpl_app: z.string().optional(),
  user_name: z.string().nullable().optional(),
  username: z.string().nullable().optional(),
  build_task: z.unknown().optional(),
});
export type TaskInput = z.infer<typeof taskInputSchema>;

/** Body of stop / stop_all_tasks; an empty body means a normal stop. */
export const stopInputSchema = z.strictObject({ force: z.boolean().optional() });
