import type { Tx } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import type { ProjectRow } from '../../db/schema.ts';
import { ApiError, badRequest } from '../../http/errors.ts';
import { now, toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { requireValidCron } from '../schedules/schedule.service.ts';
import { createTemplate, type Actor } from '../templates/template.service.ts';
import { validateTemplate } from '../templates/template.validation.ts';
import type { TemplateInput } from '../templates/template.ts';
import { integrationValues } from '../integrations/integration.service.ts';
import { extractValueValues, matcherValues } from '../integrations/integration-parts.service.ts';
import { generateAlias } from '../integrations/integration-alias.service.ts';
import type { Backup, BackupTemplate } from './backup.schema.ts';
import { verifyBackup } from './backup.verify.ts';

/** Runs `fn`; a 400 it throws gets the backup path in front (`templates[1]: Playbook filename is required`). */
async function atPath<T>(path: string, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'bad_request' && err.message) throw badRequest(`${path}: ${err.message}`);
    throw err;
  }
}

function requireJsonObjectText(path: string, text: string | null | undefined, fallback: string | null): string | null {
  if (text === null || text === undefined || text === '') return fallback;
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { parsed = undefined; }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest(`${path}: must be a JSON object`);
  return text;
}

/**
 * Creates a new project from a backup, owned by `userId`, inside the caller's transaction:
 * verification first, then environments, views, keys (without secrets), repositories,
 * inventories, templates (builds before deploys), schedules, integrations and aliases.
 * A variable-group password found in the backup (Semaphore exports it) is sealed like any secret.
 * A template `cron` (Semaphore's format) becomes a plain cron schedule of that template, not a
 * commit-check schedule as 2.10 made it; Signalbox backups carry every schedule in `schedules`.
 * Any error aborts the transaction, so a failed restore leaves nothing behind.
 * @returns the project and how many keys came back without the secret they need
 */
export async function restoreProject(tx: Tx, deps: Pick<Deps, 'config' | 'secrets'>, backup: Backup, userId: number): Promise<{ project: ProjectRow; emptyKeys: number }> {
  const { config, secrets } = deps;
  verifyBackup(backup);
  const name = backup.meta.name?.trim();
  if (!name) throw badRequest('meta.name: required');
  const project = await tx.insertInto('project').values({
    name, created: now(), alert: toFlag(backup.meta.alert), alert_chat: backup.meta.alert_chat ?? null,
    max_parallel_tasks: backup.meta.max_parallel_tasks ?? 0, type: backup.meta.type ?? '',
  }).returningAll().executeTakeFirstOrThrow();
  const actor: Actor = { projectId: project.id, userId };
  await tx.insertInto('project_user').values({ project_id: project.id, user_id: userId, role: 'owner', created: now() }).execute();
  await recordEvent(tx, { ...actor, objectType: 'project', objectId: project.id, description: 'Project created' });

  const envIds = new Map<string, number>();
  for (const [i, env] of (backup.environments ?? []).entries()) {
    const row = await tx.insertInto('environment').values({
      project_id: project.id, name: env.name, password: env.password ? secrets.seal(env.password) : null,
      json: requireJsonObjectText(`environments[${i}].json`, env.json, '{}')!, env: requireJsonObjectText(`environments[${i}].env`, env.env, null),
    }).returningAll().executeTakeFirstOrThrow();
    envIds.set(row.name, row.id);
    await recordEvent(tx, { ...actor, objectType: 'environment', objectId: row.id, description: `Environment ${row.name} created` });
  }
  const viewIds = new Map<string, number>();
  for (const view of backup.views ?? []) {
    const row = await tx.insertInto('view').values({
      project_id: project.id, title: view.title, position: view.position ?? 0, hidden: toFlag(view.hidden), type: view.type ?? '',
      sort_column: view.sort_column ?? null, sort_reverse: toFlag(view.sort_reverse),
    }).returningAll().executeTakeFirstOrThrow();
    viewIds.set(row.title, row.id);
    await recordEvent(tx, { ...actor, objectType: 'view', objectId: row.id, description: `View ${row.title} created` });
  }
  const keyIds = new Map<string, number>();
  for (const key of backup.keys ?? []) {
    const row = await tx.insertInto('access_key').values({ project_id: project.id, name: key.name, type: key.type, secret: null, owner: '', environment_id: null, created: now() })
      .returningAll().executeTakeFirstOrThrow();
    keyIds.set(row.name, row.id);
    await recordEvent(tx, { ...actor, objectType: 'key', objectId: row.id, description: `Access Key ${row.name} created` });
  }
  const ref = (map: Map<string, number>, value: string | null | undefined) => (value ? map.get(value) ?? null : null);
  const repoIds = new Map<string, number>();
  for (const repo of backup.repositories ?? []) {
    const row = await tx.insertInto('repository').values({
      project_id: project.id, name: repo.name, git_url: repo.git_url, git_branch: repo.git_branch ?? '', ssh_key_id: keyIds.get(repo.ssh_key!)!,
    }).returningAll().executeTakeFirstOrThrow();
    repoIds.set(row.name, row.id);
    await recordEvent(tx, { ...actor, objectType: 'repository', objectId: row.id, description: `Repository ${row.git_url} created` });
  }
  const invIds = new Map<string, number>();
  for (const inv of backup.inventories ?? []) {
    const row = await tx.insertInto('inventory').values({
      project_id: project.id, name: inv.name, type: inv.type, inventory: inv.inventory ?? '', ssh_key_id: ref(keyIds, inv.ssh_key),
      become_key_id: ref(keyIds, inv.become_key), repository_id: ref(repoIds, inv.repository), holder_id: null,
    }).returningAll().executeTakeFirstOrThrow();
    invIds.set(row.name, row.id);
    await recordEvent(tx, { ...actor, objectType: 'inventory', objectId: row.id, description: `Inventory ${row.name} created` });
  }

  const tplIds = new Map<string, number>();
  const ordered = (backup.templates ?? []).map((t, i) => ({ t, i })).sort((a, b) => Number(a.t.type === 'deploy') - Number(b.t.type === 'deploy'));
  for (const { t, i } of ordered) {
    const input = templateInputFrom(t, { envIds, viewIds, keyIds, repoIds, invIds, tplIds }, `templates[${i}]`);
    const { values, vaults } = await atPath(`templates[${i}]`, () => validateTemplate(tx, config, project.id, input));
    const row = await createTemplate(tx, actor, values, vaults ?? []);
    tplIds.set(row.name, row.id);
    for (const ws of t.workspaces ?? []) {
      const inventoryId = invIds.get(ws)!;
      const attached = await tx.selectFrom('template_inventory').select('inventory_id').where('template_id', '=', row.id).where('inventory_id', '=', inventoryId).executeTakeFirst();
      if (!attached) await tx.insertInto('template_inventory').values({ template_id: row.id, inventory_id: inventoryId }).execute();
    }
  }
  for (const inv of backup.inventories ?? []) {
    if (inv.holder) await tx.updateTable('inventory').set({ holder_id: tplIds.get(inv.holder)! }).where('id', '=', invIds.get(inv.name)!).execute();
  }

  const schedules = backup.schedules ?? (backup.templates ?? []).filter((t) => t.cron).map((t) => ({
    template: t.name, name: t.name, cron_format: t.cron, type: '' as const, run_at: null, active: true, repository: null, task_params: {},
  }));
  for (const [i, s] of schedules.entries()) {
    const type = s.type ?? '';
    if (type === '') await atPath(`schedules[${i}]`, () => requireValidCron(s.cron_format, config.schedule_timezone));
    const row = await tx.insertInto('schedule').values({
      project_id: project.id, template_id: tplIds.get(s.template)!, name: s.name ?? '', cron_format: s.cron_format ?? '', type,
      run_at: s.run_at ?? null, active: toFlag(s.active ?? true), repository_id: ref(repoIds, s.repository), last_commit_hash: null,
      task_params: JSON.stringify(s.task_params ?? {}),
    }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, objectType: 'schedule', objectId: row.id, description: `Schedule ID ${row.id} created` });
  }

  for (const [i, integration] of (backup.integrations ?? []).entries()) {
    const at = `integrations[${i}]`;
    const values = await atPath(at, () => integrationValues(tx, project.id, {
      name: integration.name, template_id: tplIds.get(integration.template)!, auth_method: (integration.auth_method ?? 'none') as 'none',
      auth_secret_id: ref(keyIds, integration.auth_secret), auth_header: integration.auth_header ?? null,
      searchable: integration.searchable ?? false, task_params: integration.task_params ?? {},
    }));
    const row = await tx.insertInto('integration').values({ ...values, project_id: project.id }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, integrationId: row.id, objectType: 'integration', objectId: row.id, description: `Integration ${row.name} created` });
    for (const [j, m] of (integration.matchers ?? []).entries()) {
      const mv = await atPath(`${at}.matchers[${j}]`, () => matcherValues(m as never));
      await tx.insertInto('integration_matcher').values({ ...mv, integration_id: row.id }).execute();
    }
    for (const [j, v] of (integration.extract_values ?? []).entries()) {
      const vv = await atPath(`${at}.extract_values[${j}]`, () => extractValueValues(v as never));
      await tx.insertInto('integration_extract_value').values({ ...vv, integration_id: row.id }).execute();
    }
    for (const alias of integration.aliases ?? []) await insertAlias(tx, project.id, row.id, alias);
  }
  for (const alias of backup.integration_aliases ?? []) await insertAlias(tx, project.id, null, alias);

  const emptyKeys = (backup.keys ?? []).filter((k) => k.type !== 'none').length;
  return { project, emptyKeys };
}

/** Keeps the backed-up alias when it is free on this server (aliases are global), else makes a new one. */
async function insertAlias(tx: Tx, projectId: number, integrationId: number | null, alias: string) {
  const valid = /^[a-z0-9]{4,64}$/.test(alias);
  const taken = valid && await tx.selectFrom('integration_alias').select('id').where('alias', '=', alias).executeTakeFirst();
  await tx.insertInto('integration_alias').values({ alias: valid && !taken ? alias : generateAlias(), project_id: projectId, integration_id: integrationId }).execute();
}

interface NameMaps {
  envIds: Map<string, number>; viewIds: Map<string, number>; keyIds: Map<string, number>;
  repoIds: Map<string, number>; invIds: Map<string, number>; tplIds: Map<string, number>;
}

function templateInputFrom(t: BackupTemplate, maps: NameMaps, at: string): TemplateInput {
  const id = (map: Map<string, number>, value: string | null | undefined) => (value ? map.get(value) ?? null : null);
  let surveyVars = t.survey_vars ?? [];
  if (typeof surveyVars === 'string') {
    try { surveyVars = surveyVars.trim() ? JSON.parse(surveyVars) : []; } catch { throw badRequest(`${at}: survey_vars must be a JSON array`); }
    if (!Array.isArray(surveyVars)) throw badRequest(`${at}: survey_vars must be a JSON array`);
  }
  const vaults = (t.vaults ?? []).map((v) => ({ name: v.name ?? null, type: v.type ?? 'password', vault_key_id: id(maps.keyIds, v.vault_key), script: v.script ?? null }));
  if (t.vault_key && !vaults.some((v) => v.name === null)) vaults.push({ name: null, type: 'password', vault_key_id: maps.keyIds.get(t.vault_key)!, script: null });
  return {
    name: t.name, app: t.app || 'ansible', type: (t.type ?? '') as '', playbook: t.playbook ?? '', description: t.description ?? '',
    inventory_id: id(maps.invIds, t.inventory), repository_id: id(maps.repoIds, t.repository), environment_id: id(maps.envIds, t.environment),
    view_id: id(maps.viewIds, t.view), build_template_id: id(maps.tplIds, t.build_template), arguments: t.arguments ?? null,
    allow_override_args_in_task: t.allow_override_args_in_task ?? false, allow_override_branch_in_task: t.allow_override_branch_in_task ?? false,
    allow_parallel_tasks: t.allow_parallel_tasks ?? false, suppress_success_alerts: t.suppress_success_alerts ?? false,
    suppress_error_alerts: t.suppress_error_alerts ?? false, autorun: t.autorun ?? false, start_version: t.start_version ?? null,
    git_branch: t.git_branch ?? null, working_directory: t.working_directory ?? null, runner_tag: t.runner_tag ?? null,
    executor_image: t.executor_image ?? null, task_params: t.task_params ?? {}, survey_vars: surveyVars as TemplateInput['survey_vars'], vaults,
  };
}
