import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { cronCheckSchema, scheduleActiveSchema, scheduleInputSchema, scheduleRowToSchedule } from '../domain/schedules/schedule.ts';
import {
  createSchedule, deleteSchedule, findSchedule, listSchedules, requireValidCron, setScheduleActive, updateSchedule,
} from '../domain/schedules/schedule.service.ts';
import { actorOf } from './route-context.ts';
import { scheduleChanged } from '../scheduler/scheduler.ts';
import { canonicalTimeZone } from '../lib/time-zone.ts';

export const activeSchema = scheduleActiveSchema;

/** `/api/project/:project_id/schedules`: cron, commit-check and run-at schedules (reference §6). */
export const schedulesRoutes = new Hono<AppEnv>();

schedulesRoutes.get('/', async (c) => c.json((await listSchedules(c.var.deps.db, c.var.project.id)).map(scheduleRowToSchedule)));

schedulesRoutes.post('/', async (c) => {
  const { db, config } = c.var.deps;
  const input = await readJson(c, scheduleInputSchema);
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
  c.json(scheduleRowToSchedule(await findSchedule(c.var.deps.db, c.var.project.id, idParam(c, 'schedule_id')))));

schedulesRoutes.put('/:schedule_id', async (c) => {
  const { db, config } = c.var.deps;
  const id = idParam(c, 'schedule_id');
  const input = await readJson(c, scheduleInputSchema);
  await db.transaction().execute(async (tx) => updateSchedule(tx, config, actorOf(c), await findSchedule(tx, c.var.project.id, id), input));
  await scheduleChanged(id);
  return c.body(null, 204);
});

schedulesRoutes.put('/:schedule_id/active', async (c) => {
  const id = idParam(c, 'schedule_id');
  const { active } = await readJson(c, activeSchema);
  await c.var.deps.db.transaction().execute(async (tx) => setScheduleActive(tx, actorOf(c), await findSchedule(tx, c.var.project.id, id), active));
  await scheduleChanged(id);
  return c.body(null, 204);
});

schedulesRoutes.delete('/:schedule_id', async (c) => {
  const id = idParam(c, 'schedule_id');
  await c.var.deps.db.transaction().execute(async (tx) => deleteSchedule(tx, actorOf(c), await findSchedule(tx, c.var.project.id, id)));
  await scheduleChanged(id);
  return c.body(null, 204);
});
