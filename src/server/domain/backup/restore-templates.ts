import { badRequest } from '../../http/errors.ts';
import { toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { requireValidCron } from '../schedules/schedule.service.ts';
import { parseScheduleTime } from '../../lib/wall-clock.ts';
import { canonicalTimeZone } from '../../lib/time-zone.ts';
import { createTemplate } from '../templates/template.service.ts';
import { writeAllowedInventories } from '../templates/allowed-inventories.ts';
import { validateTemplate } from '../templates/template.validation.ts';
import type { TemplateInput } from '../templates/template.ts';
import type { Backup, BackupTemplate } from './backup.schema.ts';
import { atPath, idOf, type RestoreContext } from './restore-context.ts';

/**
 * Restores templates (builds before the deploys that name them) through the same validation as
 * the API, their workspaces, the holders of workspace inventories, then the schedules.
 * A template `cron` (Semaphore's format) becomes a plain cron schedule of that template, not a
 * commit-check schedule as 2.10 made it; Signalbox backups carry every schedule in `schedules`.
 */
export async function restoreTemplates(ctx: RestoreContext, backup: Backup): Promise<void> {
  const { tx, actor, ids } = ctx;
  const ordered = (backup.templates ?? []).map((t, i) => ({ t, i })).sort((a, b) => Number(a.t.type === 'deploy') - Number(b.t.type === 'deploy'));
  for (const { t, i } of ordered) {
    const input = templateInputFrom(ctx, t, `templates[${i}]`);
    const { values, vaults, environmentIds, sshKeyIds, allowedInventories } = await atPath(`templates[${i}]`, () => validateTemplate(tx, ctx.deps.config, actor.projectId, input));
    const row = await createTemplate(tx, actor, values, vaults ?? [], environmentIds ?? [], sshKeyIds ?? []);
    if (allowedInventories) await writeAllowedInventories(tx, row.id, allowedInventories);
    ids.templates.set(row.name, row.id);
    for (const ws of t.workspaces ?? []) {
      const inventoryId = idOf(ids.inventories, ws)!;
      const attached = await tx.selectFrom('template_inventory').select('inventory_id').where('template_id', '=', row.id).where('inventory_id', '=', inventoryId).executeTakeFirst();
      if (!attached) await tx.insertInto('template_inventory').values({ template_id: row.id, inventory_id: inventoryId }).execute();
    }
    await ctx.pause();
  }
  for (const inv of backup.inventories ?? []) {
    if (inv.holder) await tx.updateTable('inventory').set({ holder_id: idOf(ids.templates, inv.holder) }).where('id', '=', idOf(ids.inventories, inv.name)!).execute();
    await ctx.pause();
  }

  const schedules = backup.schedules ?? (backup.templates ?? []).filter((t) => t.cron).map((t) => ({
    template: t.name, name: t.name, cron_format: t.cron, type: '' as const, run_at: null, active: true, repository: null, task_params: {},
  }));
  for (const [i, s] of schedules.entries()) {
    const type = s.type ?? '';
    const timezone = 'timezone' in s && s.timezone ? canonicalTimeZone(s.timezone) : null;
    if ('timezone' in s && s.timezone && !timezone) throw badRequest(`schedules[${i}]: timezone "${s.timezone}" is not a time zone`);
    const zone = timezone ?? ctx.deps.config.schedule_timezone;
    if (type === '') await atPath(`schedules[${i}]`, () => requireValidCron(s.cron_format, zone));
    if (type === 'run_at' && !(s.run_at && parseScheduleTime(s.run_at, zone))) throw badRequest(`schedules[${i}]: run_at must be a date-time`);
    const row = await tx.insertInto('schedule').values({
      project_id: actor.projectId, template_id: idOf(ids.templates, s.template)!, name: s.name ?? '', cron_format: s.cron_format ?? '', type,
      run_at: s.run_at ?? null, active: toFlag(s.active ?? true), repository_id: idOf(ids.repositories, s.repository), last_commit_hash: null,
      task_params: JSON.stringify(s.task_params ?? {}), timezone, owner_id: actor.userId,
    }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, objectType: 'schedule', objectId: row.id, description: `Schedule ID ${row.id} created` });
    await ctx.pause();
  }
}

/** A backup template as the body the templates API takes, names turned into the restored ids. */
function templateInputFrom(ctx: RestoreContext, t: BackupTemplate, at: string): TemplateInput {
  const { ids } = ctx;
  let surveyVars = t.survey_vars ?? [];
  if (typeof surveyVars === 'string') {
    try { surveyVars = surveyVars.trim() ? JSON.parse(surveyVars) : []; } catch { throw badRequest(`${at}: survey_vars must be a JSON array`); }
    if (!Array.isArray(surveyVars)) throw badRequest(`${at}: survey_vars must be a JSON array`);
  }
  const vaults = (t.vaults ?? []).map((v) => ({ name: v.name ?? null, type: v.type ?? 'password', vault_key_id: idOf(ids.keys, v.vault_key), script: v.script ?? null }));
  // Older backups name a single default vault key.
  if (t.vault_key && !vaults.some((v) => v.name === null)) vaults.push({ name: null, type: 'password', vault_key_id: idOf(ids.keys, t.vault_key), script: null });
  return {
    name: t.name, app: t.app || 'ansible', type: (t.type ?? '') as '', playbook: t.playbook ?? '', description: t.description ?? '',
    inventory_id: idOf(ids.inventories, t.inventory), repository_id: idOf(ids.repositories, t.repository), environment_id: idOf(ids.environments, t.environment),
    ...(t.environments?.length ? { environment_ids: t.environments.map((env) => idOf(ids.environments, env)!) } : {}),
    ...(t.ssh_keys?.length ? { ssh_key_ids: t.ssh_keys.map((key) => idOf(ids.keys, key)!) } : {}),
    ...(t.allowed_inventories?.length ? { allowed_inventories: t.allowed_inventories.map((inventory) => idOf(ids.inventories, inventory)!) } : {}),
    view_id: idOf(ids.views, t.view), build_template_id: idOf(ids.templates, t.build_template), arguments: t.arguments ?? null,
    allow_override_args_in_task: t.allow_override_args_in_task ?? false, allow_override_branch_in_task: t.allow_override_branch_in_task ?? false,
    allow_parallel_tasks: t.allow_parallel_tasks ?? false, suppress_success_alerts: t.suppress_success_alerts ?? false,
    suppress_error_alerts: t.suppress_error_alerts ?? false, ...(t.alert_fixed && t.suppress_success_alerts && !t.suppress_error_alerts ? { alert_on: 'fixed' as const } : {}), autorun: t.autorun ?? false, disabled: t.disabled ?? false, start_version: t.start_version ?? null,
    git_branch: t.git_branch ?? null, working_directory: t.working_directory ?? null, runner_tag: t.runner_tag ?? null,
    executor_image: t.executor_image ?? null, executor_network: (t.executor_network ?? null) as TemplateInput['executor_network'], executor_cpus: t.executor_cpus ?? null,
    executor_memory: t.executor_memory ?? null, executor_user: t.executor_user ?? null, executor_pull: (t.executor_pull ?? null) as TemplateInput['executor_pull'],
    executor_registry_key_id: idOf(ids.keys, t.executor_registry_key), task_params: t.task_params ?? {}, survey_vars: surveyVars as TemplateInput['survey_vars'], vaults,
    jwt_enabled: t.jwt_enabled ?? false, jwt_audience: t.jwt_audience ?? [], jwt_ttl: t.jwt_ttl ?? null,
    concurrency_limit: t.concurrency_limit ?? null, concurrency_policy: (t.concurrency_policy || undefined) as TemplateInput['concurrency_policy'],
    rate_limit_starts: t.rate_limit_starts ?? null, rate_limit_window: t.rate_limit_window ?? null,
  };
}
