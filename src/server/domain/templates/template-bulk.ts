import type { Deps } from '../../deps.ts';
import type { ProjectRow, TemplateRow, UserRow } from '../../db/schema.ts';
import { ApiError, badRequest } from '../../http/errors.ts';
import { writeAudit } from '../audit/audit.writer.ts';
import { auditEachItem, auditNothingChanged, beginAuditItem } from '../audit/audit-context.ts';
import { recordEvent } from '../events/event.repository.ts';
import { launchTask, LaunchRefusal } from '../tasks/launch/launch-task.ts';
import { templateEnabled } from '../tasks/launch/rules/template-enabled.ts';
import { requireInProject } from '../shared/project-refs.ts';
import type { Actor } from '../project-resource.ts';
import { deleteTemplate, findTemplate, findTemplateRefs } from './template.service.ts';
import type { BulkResult, TemplateBulkInput } from './template-bulk.schema.ts';

export { templateBulkSchema, type BulkResult } from './template-bulk.schema.ts';

export interface BulkCaller {
  project: ProjectRow;
  user: UserRow;
  /** the user's permission bits in the project */
  permissions: number;
}

/**
 * Applies one action to many templates of the project. Every id must be a template of the
 * project (else 400 naming `template_ids`, nothing done). `move`, `disable` and `enable` are
 * all-or-nothing (one transaction); `run` and `delete` go template by template, each in its own
 * transaction, and a refusal (a disabled template, a template still referenced) is reported
 * for that template without stopping the others. One audit row per template changed (per task
 * started), written in the transaction of its change.
 * @example await applyTemplateBulk(deps, caller, { action: 'disable', template_ids: [3, 4] })
 */
export async function applyTemplateBulk(deps: Deps, caller: BulkCaller, input: TemplateBulkInput): Promise<BulkResult[]> {
  const projectId = caller.project.id;
  const ids = [...new Set(input.template_ids)];
  const rows = await deps.db.selectFrom('template').selectAll().where('project_id', '=', projectId).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing !== undefined) throw badRequest(`template_ids: no template ${missing} in this project`);
  const templates = ids.map((id) => byId.get(id)!);
  auditEachItem();
  const actor: Actor = { projectId, userId: caller.user.id };
  let results: BulkResult[];
  if (input.action === 'run') results = await runEach(deps, caller, templates);
  else if (input.action === 'delete') results = await deleteEach(deps, actor, templates);
  else results = await changeAll(deps, actor, templates, input.action, input.view_id ?? null);
  if (!results.some((r) => r.ok)) auditNothingChanged();
  return results;
}

/** A refusal of one item as its result; anything but an API refusal is a real failure and is thrown. */
function refusal(template: TemplateRow, err: unknown): BulkResult {
  if (!(err instanceof ApiError)) throw err;
  return { template_id: template.id, name: template.name, ok: false, error: err.message || (err.status === 404 ? 'not found' : err.code) };
}

/** Starts each template through the launch function, as its Run button would (no values given). */
async function runEach(deps: Deps, caller: BulkCaller, templates: TemplateRow[]): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (const template of templates) {
    beginAuditItem();
    try {
      const { task } = await launchTask(deps, {
        path: 'bulk', user: caller.user, permissions: caller.permissions, valuesFrom: 'caller',
        // the queue records the task's event first: it is pointed at the row written here
        onInsert: async (tx, row) => {
          const auditId = await writeAudit(tx, {
            action: 'task_start', objectType: 'task', objectId: row.id, objectName: template.name, description: `Task ID ${row.id} queued for running`,
          });
          await tx.updateTable('event').set({ audit_id: auditId }).where('object_type', '=', 'task').where('object_id', '=', row.id).where('audit_id', 'is', null).execute();
        },
      }, { projectId: caller.project.id, input: { template_id: template.id } });
      results.push({ template_id: template.id, name: template.name, ok: true, task_id: task.id });
    } catch (err) {
      const result = refusal(template, err);
      // a code a client may word itself
      if (err instanceof LaunchRefusal && err.rule === templateEnabled.name) result.code = 'disabled';
      results.push(result);
    }
  }
  return results;
}

/**
 * Deletes template by template. A template refused because another selected one still refers to
 * it (a deploy template of its builds) is tried again once the others are gone.
 */
async function deleteEach(deps: Deps, actor: Actor, templates: TemplateRow[]): Promise<BulkResult[]> {
  const results = new Map<number, BulkResult>();
  let pending = templates;
  let progress = true;
  while (pending.length && progress) {
    progress = false;
    const refused: TemplateRow[] = [];
    for (const template of pending) {
      beginAuditItem();
      try {
        await deps.db.transaction().execute(async (tx) => {
          const current = await findTemplate(tx, actor.projectId, template.id);
          // the row first, so the delete's event points at it; a refusal takes both back
          await writeAudit(tx, { action: 'delete', objectType: 'template', objectId: template.id, objectName: template.name, description: `Template ID ${template.id} deleted` });
          await deleteTemplate(tx, actor, current);
        });
        results.set(template.id, { template_id: template.id, name: template.name, ok: true });
        progress = true;
      } catch (err) {
        const result = refusal(template, err);
        if (err instanceof ApiError && err.extra.inUse) {
          result.code = 'in_use';
          result.error = await inUseReason(deps, actor.projectId, template.id, result.error!);
          refused.push(template);
        }
        results.set(template.id, result);
      }
    }
    pending = refused;
  }
  return templates.map((t) => results.get(t.id)!);
}

/** The single delete's refusal, with what still refers to the template. */
async function inUseReason(deps: Deps, projectId: number, templateId: number, message: string): Promise<string> {
  const refs = await findTemplateRefs(deps.db, projectId, templateId);
  const named = [
    ...refs.integrations.map((r) => `integration "${r.name}"`),
    ...refs.templates.map((r) => `template "${r.name}"`),
    ...refs.workflows.map((r) => `workflow "${r.name}"`),
  ];
  return named.length ? `${message}: ${named.join(', ')}` : message;
}

/** move, disable, enable: every template in one transaction, one event and audit row each. */
async function changeAll(deps: Deps, actor: Actor, templates: TemplateRow[], action: 'move' | 'disable' | 'enable', viewId: number | null): Promise<BulkResult[]> {
  const ids = templates.map((t) => t.id);
  const field = action === 'move' ? 'view_id' : 'disabled';
  const done = action === 'move' ? (viewId === null ? 'taken out of its view' : `moved to view ${viewId}`) : `${action}d`;
  await deps.db.transaction().execute(async (tx) => {
    if (action === 'move' && viewId !== null) await requireInProject(tx, 'view', viewId, actor.projectId, 'view_id');
    const values = action === 'move' ? { view_id: viewId } : { disabled: action === 'disable' ? 1 : 0 };
    await tx.updateTable('template').set(values).where('project_id', '=', actor.projectId).where('id', 'in', ids).execute();
    for (const template of templates) {
      beginAuditItem();
      await writeAudit(tx, {
        action: 'update', objectType: 'template', objectId: template.id, objectName: template.name, fields: [field], description: `Template ID ${template.id} ${done}`,
      });
      await recordEvent(tx, { ...actor, objectType: 'template', objectId: template.id, objectName: template.name, description: `Template ID ${template.id} updated` });
    }
  });
  return templates.map((t) => ({ template_id: t.id, name: t.name, ok: true }));
}
