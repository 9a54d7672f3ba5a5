import { z } from 'zod';
import { leaveOutUnset } from '../../lib/unset-fields.ts';
import type { Selectable } from 'kysely';
import type { ScheduleTable } from '../../db/schema.ts';
import { parseJsonColumn, refId } from '../shared/project-refs.ts';

export const scheduleInputSchema = z.strictObject({
  id: z.number().int().optional(),
  project_id: z.number().int().optional(),
  template_id: refId.optional(),
  tpl_name: z.string().optional(),
  name: z.string().max(255, 'at most 255 characters').optional(),
  cron_format: z.string().max(255, 'at most 255 characters').nullable().optional(),
  type: z.enum(['', 'run_at']).optional(),
  run_at: z.string().nullable().optional(),
  active: z.boolean().optional(),
  repository_id: refId.nullable().optional(),
  task_params: z.record(z.string(), z.unknown()).nullable().optional(),
  /** IANA zone for this schedule's times; empty or null: the server's schedule time zone */
  timezone: z.string().max(64, 'at most 64 characters').nullable().optional(),
});
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

/** `PUT …/schedules/{id}/active`: the switch of the schedule list. */
export const scheduleActiveSchema = z.looseObject({ active: z.boolean() });

export const cronCheckSchema = z.looseObject({ cron_format: z.string().max(255).nullable().optional(), timezone: z.string().max(64).nullable().optional() });

export type ScheduleRow = Selectable<ScheduleTable>;

/** The zone a schedule's times are read in: its own, else the server's schedule time zone. */
export function scheduleZone(schedule: { timezone?: string | null }, serverZone: string): string {
  return schedule.timezone || serverZone || 'UTC';
}

/**
 * A schedule as the API shows it (reference §3.9); `last_commit_hash` stays inside. `last_error`
 * (ours) says why its latest firing started nothing, and is left out once a firing started a task.
 */
export function scheduleRowToSchedule(row: ScheduleRow & { tpl_name?: string }) {
  return leaveOutUnset({
    id: row.id, project_id: row.project_id, template_id: row.template_id, name: row.name,
    cron_format: row.cron_format, type: row.type, run_at: row.run_at, active: Boolean(row.active),
    repository_id: row.repository_id, task_params: parseJsonColumn<Record<string, unknown>>(row.task_params, {}),
    timezone: row.timezone ?? '',
    // ours: who the schedule acts for (who last saved it; null when unknown)
    owner_id: row.owner_id,
    ...(row.last_error ? { last_error: row.last_error } : {}),
    ...(row.tpl_name !== undefined ? { tpl_name: row.tpl_name } : {}),
  }, ['run_at']);
}
