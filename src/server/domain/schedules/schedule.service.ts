import type { Db, Tx } from '../../db/database.ts';
import type { Config } from '../../config/config.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { toFlag } from '../../lib/time.ts';
import { parseCron } from '../../lib/cron.ts';
import { parseScheduleTime } from '../../lib/wall-clock.ts';
import { recordEvent } from '../events/event.repository.ts';
import { requireInProject, requireOptionalInProject } from '../shared/project-refs.ts';
import type { Actor } from '../project-resource.ts';
import { canonicalTimeZone } from '../../lib/time-zone.ts';
import { scopeIds, type TemplateScope } from '../templates/template-visibility.ts';
import { scheduleZone, type ScheduleInput, type ScheduleRow } from './schedule.ts';

/** Throws the 400 `Cron: <message>` of Semaphore when the expression does not parse. */
export function requireValidCron(expression: string | null | undefined, timezone: string): void {
  const text = (expression ?? '').trim();
  if (!text) throw badRequest('Cron: the cron format is required');
  try {
    parseCron(text, timezone);
  } catch (err) {
    // The parser's own words, without croner's class-name prefix.
    throw badRequest(`Cron: ${String((err as Error).message ?? err).replace(/^CronPattern: /, '')}`);
  }
}

export async function findSchedule(db: Db | Tx, projectId: number, id: number): Promise<ScheduleRow> {
  const row = await db.selectFrom('schedule').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Schedules of a project (or of one template; of those in `scope`) with their template's name as `tpl_name`. */
export function listSchedules(db: Db | Tx, projectId: number, options: { templateId?: number; scope?: TemplateScope } = {}) {
  let query = db.selectFrom('schedule').innerJoin('template', 'template.id', 'schedule.template_id')
    .selectAll('schedule').select('template.name as tpl_name').where('schedule.project_id', '=', projectId);
  if (options.templateId !== undefined) query = query.where('schedule.template_id', '=', options.templateId);
  if (options.scope) query = query.where('schedule.template_id', 'in', scopeIds(options.scope));
  return query.orderBy('schedule.id').execute();
}

async function scheduleValues(db: Db | Tx, config: Config, projectId: number, input: ScheduleInput, current?: ScheduleRow) {
  const templateId = input.template_id ?? current?.template_id;
  if (!templateId) throw badRequest('Template is required');
  await requireInProject(db, 'template', templateId, projectId, 'template_id');
  // a name is optional, as in Semaphore (its API tests make schedules without one); the console asks for one
  const name = (input.name ?? current?.name ?? '').trim();
  const type = input.type ?? current?.type ?? '';
  const repositoryId = input.repository_id !== undefined ? input.repository_id : current?.repository_id ?? null;
  await requireOptionalInProject(db, 'repository', repositoryId, projectId, 'repository_id');
  const timezone = scheduleTimezone(input, current);
  const zone = scheduleZone({ timezone }, config.schedule_timezone);
  let cron = (input.cron_format !== undefined ? input.cron_format : current?.cron_format) ?? '';
  let runAt: string | null = null;
  if (type === 'run_at') {
    const raw = input.run_at !== undefined ? input.run_at : current?.run_at;
    // A time without a zone is wall-clock time in the schedule's zone, as the scheduler reads it.
    const at = raw ? parseScheduleTime(raw, zone) : null;
    if (!at) throw badRequest('run_at: must be a date-time such as 2026-12-24T18:00:00Z');
    runAt = at.toISOString();
    // Only a new time must lie ahead: renaming or toggling a one-shot schedule that already ran stays possible.
    if (runAt !== current?.run_at && at.getTime() <= Date.now()) throw badRequest('run_at: must be in the future');
    cron = '';
  } else {
    requireValidCron(cron, zone);
    cron = cron.trim();
  }
  const taskParams = input.task_params !== undefined ? JSON.stringify(input.task_params ?? {}) : current?.task_params ?? '{}';
  return {
    template_id: templateId, name, type, cron_format: cron, run_at: runAt, repository_id: repositoryId,
    active: input.active !== undefined ? toFlag(input.active) : current?.active ?? 1, task_params: taskParams, timezone,
  };
}

/** The schedule's own zone in its canonical spelling, or null (the server's); 400 for an unknown name. */
function scheduleTimezone(input: ScheduleInput, current?: ScheduleRow): string | null {
  const raw = input.timezone !== undefined ? input.timezone : current?.timezone;
  if (!raw || !raw.trim()) return null;
  const zone = canonicalTimeZone(raw);
  if (!zone) throw badRequest(`timezone: "${raw}" is not a time zone; use an IANA name such as Europe/Berlin`);
  return zone;
}

/** Validates and inserts a schedule, owned by its maker; "Schedule ID <id> created" goes to the activity log. */
export async function createSchedule(tx: Tx, config: Config, actor: Actor, input: ScheduleInput): Promise<ScheduleRow> {
  if (input.project_id !== undefined && input.project_id !== actor.projectId) throw badRequest('Project ID in body and URL must be the same');
  const values = await scheduleValues(tx, config, actor.projectId, input);
  const row = await tx.insertInto('schedule').values({ ...values, project_id: actor.projectId, last_commit_hash: null, owner_id: actor.userId }).returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, objectType: 'schedule', objectId: row.id, description: `Schedule ID ${row.id} created` });
  return row;
}

/** Validates and saves a schedule; who saves it becomes its owner (the person its firings act for). */
export async function updateSchedule(tx: Tx, config: Config, actor: Actor, current: ScheduleRow, input: ScheduleInput): Promise<void> {
  if (input.id !== undefined && input.id !== current.id) throw badRequest('Schedule ID in body and URL must be the same');
  if (input.project_id !== undefined && input.project_id !== actor.projectId) throw badRequest('Project ID in body and URL must be the same');
  const values = await scheduleValues(tx, config, actor.projectId, input, current);
  // A new repository or branch source starts fresh: the next commit check fires again.
  const lastCommit = values.repository_id === current.repository_id ? current.last_commit_hash : null;
  await tx.updateTable('schedule').set({ ...values, last_commit_hash: lastCommit, owner_id: actor.userId }).where('id', '=', current.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'schedule', objectId: current.id, description: `Schedule ID ${current.id} updated` });
}

export async function setScheduleActive(tx: Tx, actor: Actor, current: ScheduleRow, active: boolean): Promise<void> {
  await tx.updateTable('schedule').set({ active: toFlag(active) }).where('id', '=', current.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'schedule', objectId: current.id, description: `Schedule ID ${current.id} updated` });
}

export async function deleteSchedule(tx: Tx, actor: Actor, current: ScheduleRow): Promise<void> {
  await tx.deleteFrom('schedule').where('id', '=', current.id).execute();
  await recordEvent(tx, { ...actor, objectType: 'schedule', objectId: current.id, description: `Schedule ID ${current.id} deleted` });
}
