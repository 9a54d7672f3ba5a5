import { Hono, type Context } from 'hono';
import { badRequest } from '../http/errors.ts';
import { seesTemplate } from '../domain/templates/template-visibility.ts';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { cronCheckSchema, scheduleActiveSchema, scheduleInputSchema, scheduleRowToSchedule } from '../domain/schedules/schedule.ts';
import {
  createSchedule, deleteSchedule, listSchedules, requireValidCron, setScheduleActive, updateSchedule,
} from '../domain/schedules/schedule.service.ts';
import { actorOf, scheduleOf } from './route-context.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';
import { scheduleChanged } from '../scheduler/scheduler.ts';
import { canonicalTimeZone } from '../lib/time-zone.ts';

export const activeSchema = scheduleActiveSchema;

/** A schedule names only a template the caller sees; another reads as one that is not there. */
async function assertTemplateSeen(c: Context<AppEnv>, templateId: number | undefined): Promise<void> {
  if (templateId !== undefined && !seesTemplate(await templateScopeOf(c), templateId)) throw badRequest(`template_id: no template ${templateId} in this project`);
}

/** `/api/project/:project_id/schedules`: cron, commit-check and run-at schedules (reference §6). */
export const schedulesRoutes = new Hono<AppEnv>();

schedulesRoutes.get('/', async (c) => c.json((await listSchedules(c.var.deps.db, c.var.project.id, { scope: await templateScopeOf(c) })).map(scheduleRowToSchedule)));

schedulesRoutes.post('/', async (c) => {
  const { db, config } = c.var.deps;
  const input = await readJson(c, scheduleInputSchema);
  await assertTemplateSeen(c, input.template_id);
  const row = await db.transaction().execute((tx) => createSchedule(tx, config, actorOf(c), input));
  await scheduleChanged(row.id);
  return c.json(scheduleRowToSchedule(row), 201);
});

schedulesRoutes.post('/validate', async (c) => {
  const input = await readJson(c, cronCheckSchema);
  requireValidCron(input.cron_format, (input.timezone && canonicalTimeZone(input.timezone)) || c.var.deps.config.schedule_timezone);
  return c.body(null, 200);
});

schedulesRoutes.get('/:schedule_id', async (c) =>
  c.json(scheduleRowToSchedule(await scheduleOf(c))));

schedulesRoutes.put('/:schedule_id', async (c) => {
  const { db, config } = c.var.deps;
  const id = idParam(c, 'schedule_id');
  const input = await readJson(c, scheduleInputSchema);
  await assertTemplateSeen(c, input.template_id);
  await db.transaction().execute(async (tx) => updateSchedule(tx, config, actorOf(c), await scheduleOf(c, tx), input));
  await scheduleChanged(id);
  return c.body(null, 204);
});

schedulesRoutes.put('/:schedule_id/active', async (c) => {
  const id = idParam(c, 'schedule_id');
  const { active } = await readJson(c, activeSchema);
  await c.var.deps.db.transaction().execute(async (tx) => setScheduleActive(tx, actorOf(c), await scheduleOf(c, tx), active));
  await scheduleChanged(id);
  return c.body(null, 204);
});

schedulesRoutes.delete('/:schedule_id', async (c) => {
  const id = idParam(c, 'schedule_id');
  await c.var.deps.db.transaction().execute(async (tx) => deleteSchedule(tx, actorOf(c), await scheduleOf(c, tx)));
  await scheduleChanged(id);
  return c.body(null, 204);
});
