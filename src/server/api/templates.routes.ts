import { writeTemplateLocks } from '../domain/locks/template-locks.ts';
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { hasPermission, Permission } from '../access/permissions.ts';
import { idParam, parseWith, readJson } from '../http/validation.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { templateInputSchema } from '../domain/templates/template.ts';
import { validateTemplate } from '../domain/templates/template.validation.ts';
import { descriptionSchema } from '../domain/templates/template-description.ts';
import {
  changeWorkspace, createTemplate, deleteTemplate, findTemplate, findTemplateRefs, listTemplates, presentTemplates,
  updateTemplate, updateTemplateDescription, type WorkspaceAction,
} from '../domain/templates/template.service.ts';
import { countTemplateTasks, listTemplateTasks } from '../domain/templates/template-tasks.ts';
import { listSchedules } from '../domain/schedules/schedule.service.ts';
import { scheduleRowToSchedule } from '../domain/schedules/schedule.ts';
import { countTasksByDay } from '../domain/stats/task-stats.ts';
import { setTemplateAlertChannels } from '../domain/alert-channels/alert-channel.service.ts';
import { writeAllowedInventories } from '../domain/templates/allowed-inventories.ts';
import { actorOf, limitQuery, templateOf } from './route-context.ts';
import { readStatsQuery } from './stats-query.ts';
import { loadSurveyOptions } from '../domain/templates/survey-options.ts';
import { surveyVarsOf } from '../domain/templates/stored-survey-vars.ts';
import { respondWithLastTasks, respondWithTaskPage, wantsTaskPage } from './task-page.ts';
import { applyTemplateBulk, templateBulkSchema } from '../domain/templates/template-bulk.ts';
import { pageTemplates, TEMPLATE_PAGE_PARAMS, templatePageQuerySchema } from '../domain/templates/template-page.ts';

export { descriptionSchema };

/** `/api/project/:project_id/templates`: templates and their sub-resources (reference §3.7). */
export const templatesRoutes = new Hono<AppEnv>();

templatesRoutes.get('/', async (c) => {
  if (TEMPLATE_PAGE_PARAMS.some((name) => c.req.query(name) !== undefined)) {
    const page = await pageTemplates(c.var.deps.db, c.var.project.id, parseWith(templatePageQuerySchema, c.req.query()), 100);
    c.header('X-Has-Next', String(page.nextCursor !== null));
    if (page.nextCursor) c.header('X-Next-Cursor', page.nextCursor);
    return c.json(page.templates);
  }
  const { app, sort, order } = c.req.query();
  return c.json(await listTemplates(c.var.deps.db, c.var.project.id, { app, sort, order }));
});

templatesRoutes.post('/', async (c) => {
  const { db, config } = c.var.deps;
  const input = await readJson(c, templateInputSchema);
  const row = await db.transaction().execute(async (tx) => {
    const { values, vaults, environmentIds, sshKeyIds, alertChannelIds, allowedInventories, lockIds } = await validateTemplate(tx, config, c.var.project.id, input);
    const created = await createTemplate(tx, actorOf(c), values, vaults ?? [], environmentIds ?? [], sshKeyIds ?? []);
    if (alertChannelIds) await setTemplateAlertChannels(tx, created.id, alertChannelIds);
    if (allowedInventories) await writeAllowedInventories(tx, created.id, allowedInventories);
    if (lockIds) await writeTemplateLocks(tx, created.id, lockIds);
    return created;
  });
  const [template] = await presentTemplates(db, [row]);
  return c.json(template, 201);
});

/**
 * One action on many templates (run, move, disable, enable, delete): the single actions' role
 * checks (run: RunTasks; the others: ManageResources), a result per template.
 */
templatesRoutes.post('/bulk', async (c) => {
  const { user, permissions } = c.var;
  const may = (bits: number) => Boolean(user.admin) || hasPermission(permissions, bits);
  if (!may(Permission.RunTasks) && !may(Permission.ManageResources)) throw forbidden();
  const input = await readJson(c, templateBulkSchema);
  if (!may(input.action === 'run' ? Permission.RunTasks : Permission.ManageResources)) throw forbidden();
  const caller = { project: c.var.project, user, permissions };
  return c.json({ results: await applyTemplateBulk(c.var.deps, caller, input) });
});

templatesRoutes.get('/:template_id', async (c) => {
  const row = await templateOf(c);
  const [template] = await presentTemplates(c.var.deps.db, [row]);
  return c.json(template);
});

templatesRoutes.put('/:template_id', async (c) => {
  const { db, config } = c.var.deps;
  const id = idParam(c, 'template_id');
  const input = await readJson(c, templateInputSchema);
  await db.transaction().execute(async (tx) => {
    const current = await findTemplate(tx, c.var.project.id, id);
    if (input.id !== undefined && input.id !== id) throw badRequest('Template ID in body and URL must be the same');
    const { values, vaults, environmentIds, sshKeyIds, alertChannelIds, allowedInventories, lockIds } = await validateTemplate(tx, config, c.var.project.id, input, current);
    await updateTemplate(tx, actorOf(c), current, values, vaults, environmentIds, sshKeyIds);
    if (alertChannelIds) await setTemplateAlertChannels(tx, current.id, alertChannelIds);
    if (allowedInventories) await writeAllowedInventories(tx, current.id, allowedInventories);
    if (lockIds) await writeTemplateLocks(tx, current.id, lockIds);
  });
  return c.body(null, 204);
});

templatesRoutes.delete('/:template_id', async (c) => {
  const { db } = c.var.deps;
  const id = idParam(c, 'template_id');
  await db.transaction().execute(async (tx) => deleteTemplate(tx, actorOf(c), await findTemplate(tx, c.var.project.id, id)));
  return c.body(null, 204);
});

templatesRoutes.put('/:template_id/description', async (c) => {
  const { db } = c.var.deps;
  const id = idParam(c, 'template_id');
  const input = await readJson(c, descriptionSchema);
  await db.transaction().execute(async (tx) =>
    updateTemplateDescription(tx, actorOf(c), await findTemplate(tx, c.var.project.id, id), input.description ?? ''));
  return c.body(null, 204);
});

/** Newest first, up to 1000; `?offset=` (our addition, for the template page) pages and sets `X-Total-Count`. */
templatesRoutes.get('/:template_id/tasks', async (c) => {
  const template = await templateOf(c);
  // `status` alone keeps its offset paging; a cursor or another filter asks for a cursor page
  if (wantsTaskPage(c, ['status', 'template_id'])) return respondWithTaskPage(c, { projectId: c.var.project.id, templateId: template.id }, 1000);
  const status = c.req.query('status') || undefined;
  const rawOffset = c.req.query('offset');
  if (rawOffset === undefined) return c.json(await listTemplateTasks(c.var.deps.db, c.var.project.id, template.id, { limit: limitQuery(c, 1000), status }));
  const offset = /^\d{1,9}$/.test(rawOffset) ? Number(rawOffset) : 0;
  const [rows, total] = await Promise.all([
    listTemplateTasks(c.var.deps.db, c.var.project.id, template.id, { limit: limitQuery(c, 1000), status, offset }),
    countTemplateTasks(c.var.deps.db, template.id, status),
  ]);
  c.header('X-Total-Count', String(total));
  return c.json(rows);
});

templatesRoutes.get('/:template_id/tasks/last', async (c) => {
  const template = await templateOf(c);
  return respondWithLastTasks(c, { projectId: c.var.project.id, templateId: template.id });
});

templatesRoutes.get('/:template_id/schedules', async (c) => {
  const template = await templateOf(c);
  return c.json((await listSchedules(c.var.deps.db, c.var.project.id, { templateId: template.id })).map(scheduleRowToSchedule));
});

templatesRoutes.get('/:template_id/refs', async (c) => {
  const template = await templateOf(c);
  return c.json(await findTemplateRefs(c.var.deps.db, c.var.project.id, template.id));
});

/** The choices of the template's enum survey variables that read them from a URL, or why each has none (the launch dialog asks). */
templatesRoutes.get('/:template_id/survey_options', async (c) => {
  const template = await templateOf(c);
  const { db, secrets, config } = c.var.deps;
  return c.json(await loadSurveyOptions(db, { box: secrets, sources: config.secret_sources }, c.var.project.id, surveyVarsOf(template.survey_vars)));
});

templatesRoutes.get('/:template_id/stats', async (c) => {
  const template = await templateOf(c);
  return c.json(await countTasksByDay(c.var.deps.db, readStatsQuery(c, c.var.project.id, template.id)));
});

templatesRoutes.post('/:template_id/inventory/:inventory_id/:action{set_default|attach|detach}', async (c) => {
  const { db } = c.var.deps;
  const templateId = idParam(c, 'template_id');
  const inventoryId = idParam(c, 'inventory_id');
  const action = c.req.param('action') as WorkspaceAction;
  await db.transaction().execute(async (tx) =>
    changeWorkspace(tx, actorOf(c), await findTemplate(tx, c.var.project.id, templateId), inventoryId, action));
  return c.body(null, 204);
});
