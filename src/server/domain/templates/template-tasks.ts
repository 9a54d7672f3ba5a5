import type { Db, Tx } from '../../db/database.ts';
import type { TaskRow } from '../../db/schema.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';

/** A task with its template's name/app/type, as template lists and `/templates/{id}/tasks` show it. */
export interface TemplateTask {
  id: number;
  template_id: number;
  project_id: number;
  status: string;
  playbook: string;
  environment: string;
  secret: string;
  arguments: string | null;
  git_branch: string | null;
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
  inventory_id: number | null;
  params: Record<string, unknown>;
  debug: boolean;
  dry_run: boolean;
  diff: boolean;
  tpl_playbook: string;
  tpl_alias: string;
  tpl_type: string;
  tpl_app: string;
  user_name: string | null;
}

type TaskWithTemplateRow = TaskRow & { tpl_playbook: string; tpl_alias: string; tpl_type: string; tpl_app: string; user_name: string | null };

function taskRowToTemplateTask(row: TaskWithTemplateRow): TemplateTask {
  const params = parseJsonColumn<Record<string, unknown>>(row.params, {});
  return {
    id: row.id, template_id: row.template_id, project_id: row.project_id, status: row.status,
    playbook: row.playbook, environment: row.environment, secret: '', arguments: row.arguments,
    git_branch: row.git_branch, user_id: row.user_id, integration_id: row.integration_id,
    schedule_id: row.schedule_id, created: row.created, start: row.start, end: row.end,
    message: row.message, commit_hash: row.commit_hash, commit_message: row.commit_message,
    build_task_id: row.build_task_id, version: row.version, inventory_id: row.inventory_id, params,
    debug: Boolean(params.debug), dry_run: Boolean(params.dry_run), diff: Boolean(params.diff),
    tpl_playbook: row.tpl_playbook, tpl_alias: row.tpl_alias, tpl_type: row.tpl_type, tpl_app: row.tpl_app,
    user_name: row.user_name,
  };
}

function selectTasksWithTemplate(db: Db | Tx) {
  return db.selectFrom('task')
    .innerJoin('template', 'template.id', 'task.template_id')
    .leftJoin('user', 'user.id', 'task.user_id')
    .selectAll('task')
    .select(['template.playbook as tpl_playbook', 'template.name as tpl_alias', 'template.type as tpl_type', 'template.app as tpl_app', 'user.name as user_name']);
}

/**
 * Tasks of one template, newest first, at most `limit`; `status` narrows to one status
 * (the deploy dialog asks for `status=success` builds).
 * @example await listTemplateTasks(db, 1, 4, { limit: 20, status: 'success' });
 */
export async function listTemplateTasks(db: Db | Tx, projectId: number, templateId: number, options: { limit: number; status?: string }): Promise<TemplateTask[]> {
  let query = selectTasksWithTemplate(db).where('task.project_id', '=', projectId).where('task.template_id', '=', templateId);
  if (options.status) query = query.where('task.status', '=', options.status);
  const rows = await query.orderBy('task.id', 'desc').limit(options.limit).execute();
  return rows.map((r) => taskRowToTemplateTask(r as TaskWithTemplateRow));
}

/** The newest task and the task count of each template given. */
export async function summariseTemplateTasks(db: Db | Tx, templateIds: number[]): Promise<Map<number, { lastTask: TemplateTask | null; taskCount: number }>> {
  const summary = new Map<number, { lastTask: TemplateTask | null; taskCount: number }>();
  for (const id of templateIds) summary.set(id, { lastTask: null, taskCount: 0 });
  if (templateIds.length === 0) return summary;
  const counts = await db.selectFrom('task').select(['template_id', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.max('id').as('last_id')])
    .where('template_id', 'in', templateIds).groupBy('template_id').execute();
  const lastIds = counts.map((c) => Number(c.last_id));
  const lastTasks = lastIds.length
    ? (await selectTasksWithTemplate(db).where('task.id', 'in', lastIds).execute()).map((r) => taskRowToTemplateTask(r as TaskWithTemplateRow))
    : [];
  for (const c of counts) {
    summary.set(c.template_id, { taskCount: Number(c.n), lastTask: lastTasks.find((t) => t.id === Number(c.last_id)) ?? null });
  }
  return summary;
}
