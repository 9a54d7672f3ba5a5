import type { Deps } from '../../../deps.ts';
import type { TaskRow, TemplateRow } from '../../../db/schema.ts';
import { ApiError, badRequest } from '../../../http/errors.ts';
import { parseJsonObject } from '../../../lib/json-object.ts';
import { enqueueTask } from '../enqueue-task.ts';
import type { TaskInput } from '../task.ts';
import { LAUNCH_RULES } from './launch-rules.ts';
import type { Launch, LaunchRequest, LaunchRule, Starter } from './launch.ts';

export type { Launch, LaunchRequest, LaunchRule, Starter } from './launch.ts';

export interface Launched {
  task: TaskRow;
  /** what was asked for and not applied; also written at the top of the task's log */
  notes: string[];
}

/**
 * The one way a task starts: every path (API and launch dialog, re-run, bulk run, schedule,
 * webhook, autorun, workflow node) calls it, and every rule of LAUNCH_RULES holds for each;
 * a path may add its own (`starter.rules`). A refusal is an ApiError whose message is the same
 * whichever path asked; the path records it where its people look (START_PATHS).
 * @example const { task } = await launchTask(deps, { path: 'api', user, permissions, valuesFrom: 'caller' }, { projectId: 1, input: { template_id: 3 } });
 */
export async function launchTask(deps: Deps, starter: Starter, request: LaunchRequest): Promise<Launched> {
  const template = await findTemplate(deps, request.projectId, request.input);
  const launch: Launch = {
    deps, starter, input: request.input, template, templateParams: parseJsonObject(template.task_params), editor: false, notes: [], stops: [],
    task: {
      projectId: request.projectId, templateId: template.id, userId: starter.user?.id ?? null,
      scheduleId: starter.scheduleId ?? null, integrationId: starter.integrationId ?? null, message: request.input.message ?? '',
      priority: request.input.priority ?? 'normal',
    },
  };
  const rules = [...LAUNCH_RULES, ...(starter.rules ?? [])];
  for (const rule of rules) await asRule(rule, () => rule.check?.(launch));
  const task = await enqueueTask(deps, {
    ...launch.task,
    notes: launch.notes,
    admit: async (tx) => { for (const rule of rules) await asRule(rule, () => rule.admit?.(tx, launch)); },
    onInsert: starter.onInsert,
  });
  for (const rule of rules) await rule.queued?.(launch, task);
  return { task, notes: launch.notes };
}

/** A start a rule refused: the API error every path shows, and which rule it was. */
export class LaunchRefusal extends ApiError {
  readonly rule: string;
  constructor(rule: string, cause: ApiError) {
    super(cause.code, cause.message, cause.extra, cause.headers);
    this.rule = rule;
  }
}

async function asRule(rule: LaunchRule, step: () => unknown): Promise<void> {
  try {
    await step();
  } catch (err) {
    throw err instanceof ApiError && !(err instanceof LaunchRefusal) ? new LaunchRefusal(rule.name, err) : err;
  }
}

/**
 * The template by `template_id`, else by `template_name` (Semaphore 2.20). Names made before
 * they had to be unique may be shared: then the name is ambiguous and the caller must use the id.
 */
async function findTemplate(deps: Deps, projectId: number, input: TaskInput): Promise<TemplateRow> {
  const query = deps.db.selectFrom('template').selectAll().where('project_id', '=', projectId);
  if (input.template_id) {
    const template = await query.where('id', '=', input.template_id).executeTakeFirst();
    if (!template) throw badRequest('template_id: no such template in this project');
    return template;
  }
  if (!input.template_name) throw badRequest('template_id: required');
  const named = await query.where('name', '=', input.template_name).orderBy('id').execute();
  if (!named[0]) throw badRequest(`template_name: no template "${input.template_name}" in this project`);
  if (named[1]) throw badRequest(`template_name: several templates are named "${input.template_name}" (IDs ${named.map((t) => t.id).join(', ')}); use template_id`);
  return named[0];
}
