import { concurrencyFieldsOf } from '../templates/concurrency-fields.ts';
import { isExternalSourceType } from '../keys/key-source.ts';
import type { Db } from '../../db/database.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';
import type { Backup, BackupTemplate } from './backup.schema.ts';
import type { TemplateRow } from '../../db/schema.ts';
import { executorFieldsOf } from '../templates/executor-fields.ts';
import { exportHostConfigs } from './backup-host-configs.ts';
import { exportSecretStorages } from './backup-secret-storages.ts';
import { templateAudiences } from '../../identity/task-token.ts';
import { exportWorkflows } from './backup-workflows.ts';
import { groupsOf, readTemplateEnvironmentIds } from '../environments/environment-list.ts';
import { readTemplateSshKeyIds } from '../templates/template-ssh-keys.ts';
import { exportAlertChannels, exportEventWebhooks, exportTemplateChannelNames } from './backup-alerts.ts';
import { uniqueNames } from './unique-names.ts';
import { exportGrants, exportRoles } from './backup-roles.ts';
import { readAllowedInventories } from '../templates/allowed-inventories.ts';

/** Semaphore's single `cron` of a template: its plain cron schedule, the first by name. */
function plainCron(schedules: { template_id: number; type: string; cron_format: string; repository_id: number | null; name: string }[], templateId: number): string | null {
  const plain = schedules.filter((s) => s.template_id === templateId && s.type === '' && s.cron_format && s.repository_id === null);
  plain.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return plain[0]?.cron_format ?? null;
}

/** A template's container settings as set (none of them when the template has none). */
function executorBackupFields(t: TemplateRow, keyNameOf: (id: number | null) => string | null): Partial<BackupTemplate> {
  const fields = executorFieldsOf(t);
  return Object.fromEntries(Object.entries({
    executor_network: t.executor_network, executor_cpus: fields.executor_cpus, executor_memory: t.executor_memory, executor_user: t.executor_user,
    executor_pull: t.executor_pull, executor_registry_key: keyNameOf(t.executor_registry_key_id),
  }).filter(([, value]) => value !== null));
}

const byName = <T extends { name: string; id: number }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id);

/**
 * The project as Semaphore's backup JSON (reference §9.1): references by name, no ids and no
 * secrets. Sections are sorted by name so a restored project exports identically.
 * @example const backup = await exportProject(db, 3);
 */
export async function exportProject(db: Db, projectId: number): Promise<Backup> {
  const project = await db.selectFrom('project').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
  const keys = (await db.selectFrom('access_key').selectAll().where('project_id', '=', projectId).where('owner', '=', '').execute()).sort(byName);
  const repositories = (await db.selectFrom('repository').selectAll().where('project_id', '=', projectId).execute()).sort(byName);
  const inventories = (await db.selectFrom('inventory').selectAll().where('project_id', '=', projectId).execute()).sort(byName);
  const environments = (await db.selectFrom('environment').selectAll().where('project_id', '=', projectId).execute()).sort(byName);
  const views = await db.selectFrom('view').selectAll().where('project_id', '=', projectId).orderBy('position').orderBy('title').orderBy('id').execute();
  const templates = (await db.selectFrom('template').selectAll().where('project_id', '=', projectId).execute()).sort(byName);
  const vaults = await db.selectFrom('template_vault').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  const workspaces = await db.selectFrom('template_inventory').innerJoin('template', 'template.id', 'template_inventory.template_id')
    .select(['template_inventory.template_id', 'template_inventory.inventory_id']).where('template.project_id', '=', projectId).execute();
  const templateGroups = await readTemplateEnvironmentIds(db, templates.map((t) => t.id));
  const templateKeys = await readTemplateSshKeyIds(db, templates.map((t) => t.id));
  const templateInventories = await readAllowedInventories(db, templates.map((t) => t.id));
  const schedules = await db.selectFrom('schedule').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  const integrations = (await db.selectFrom('integration').selectAll().where('project_id', '=', projectId).execute()).sort(byName);
  const integrationIds = integrations.map((i) => i.id);
  const matchers = integrationIds.length ? await db.selectFrom('integration_matcher').selectAll().where('integration_id', 'in', integrationIds).orderBy('id').execute() : [];
  const values = integrationIds.length ? await db.selectFrom('integration_extract_value').selectAll().where('integration_id', 'in', integrationIds).orderBy('id').execute() : [];
  const aliases = await db.selectFrom('integration_alias').selectAll().where('project_id', '=', projectId).orderBy('alias').execute();

  const storages = await exportSecretStorages(db, projectId);
  const roles = await exportRoles(db, projectId);
  const templateGrants = await exportGrants(db, 'template', templates.map((t) => t.id));
  const viewGrants = await exportGrants(db, 'view', views.map((v) => v.id));
  const channels = await exportAlertChannels(db, projectId);
  const templateChannels = await exportTemplateChannelNames(db, templates.map((t) => t.id), channels.nameOf);
  const keyName = uniqueNames(keys, (k) => k.name);
  const repoName = uniqueNames(repositories, (r) => r.name);
  const invName = uniqueNames(inventories, (i) => i.name);
  const envName = uniqueNames(environments, (e) => e.name);
  const viewName = uniqueNames(views, (v) => v.title);
  const tplName = uniqueNames(templates, (t) => t.name);
  const integrationName = uniqueNames(integrations, (i) => i.name);
  const name = (map: Map<number, string>, id: number | null) => (id === null ? null : map.get(id) ?? null);
  const nameSort = <T extends { name: string }>(list: T[]) => list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  return {
    meta: { name: project.name, alert: Boolean(project.alert), alert_chat: project.alert_chat, max_parallel_tasks: project.max_parallel_tasks, type: project.type, ...(project.executor_image ? { executor_image: project.executor_image } : {}) },
    keys: nameSort(keys.map((k) => ({
      name: keyName.get(k.id)!, type: k.type as 'none',
      ...(k.source_storage_id !== null ? { source_storage: storages.nameOf.get(k.source_storage_id) ?? null, source_storage_key: k.source_storage_key } : {}),
      ...(isExternalSourceType(k.source_storage_type) ? { source_storage_type: k.source_storage_type, source_storage_key: k.source_storage_key } : {}),
    }))),
    repositories: nameSort(repositories.map((r) => ({ name: repoName.get(r.id)!, git_url: r.git_url, git_branch: r.git_branch, ssh_key: name(keyName, r.ssh_key_id), pull_submodules: Boolean(r.pull_submodules) }))),
    host_configs: await exportHostConfigs(db, projectId, keyName),
    secret_storages: storages.list,
    workflows: await exportWorkflows(db, projectId, { templates: tplName, inventories: invName, environments: envName }),
    inventories: nameSort(inventories.map((i) => ({
      name: invName.get(i.id)!, inventory: i.inventory, type: i.type as 'static', ssh_key: name(keyName, i.ssh_key_id),
      become_key: name(keyName, i.become_key_id), repository: name(repoName, i.repository_id), holder: name(tplName, i.holder_id),
      ...(i.source_key_id ? { source_key: name(keyName, i.source_key_id) } : {}), ...(i.sync_cron ? { sync_cron: i.sync_cron } : {}),
    }))),
    // The variable-group password is a secret (sealed at rest): like key secrets it is not exported.
    // (left out rather than null: Semaphore's document types it a string)
    environments: nameSort(environments.map((e) => ({ name: envName.get(e.id)!, json: e.json, ...(e.env === null ? {} : { env: e.env }) }))),
    views: views.map((v) => ({
      title: viewName.get(v.id)!, position: v.position, hidden: Boolean(v.hidden), type: v.type as '', sort_column: v.sort_column, sort_reverse: Boolean(v.sort_reverse),
      ...(viewGrants.has(v.id) ? { grants: viewGrants.get(v.id)! } : {}),
    })),
    templates: nameSort(templates.map((t) => ({
      name: tplName.get(t.id)!, app: t.app, type: t.type as '', playbook: t.playbook, description: t.description,
      inventory: name(invName, t.inventory_id), repository: name(repoName, t.repository_id), environment: name(envName, t.environment_id),
      view: name(viewName, t.view_id), build_template: name(tplName, t.build_template_id), arguments: t.arguments,
      allow_override_args_in_task: Boolean(t.allow_override_args_in_task), allow_override_branch_in_task: Boolean(t.allow_override_branch_in_task),
      allow_parallel_tasks: Boolean(t.allow_parallel_tasks), suppress_success_alerts: Boolean(t.suppress_success_alerts),
      suppress_error_alerts: Boolean(t.suppress_error_alerts), ...(t.alert_fixed ? { alert_fixed: true } : {}), autorun: Boolean(t.autorun), ...(t.disabled ? { disabled: true } : {}), start_version: t.start_version,
      git_branch: t.git_branch, working_directory: t.working_directory, runner_tag: t.runner_tag, executor_image: t.executor_image,
      ...executorBackupFields(t, (id) => name(keyName, id)),
      jwt_enabled: Boolean(t.jwt_enabled), jwt_audience: templateAudiences(t), jwt_ttl: t.jwt_ttl,
      ...concurrencyFieldsOf(t),
      task_params: parseJsonColumn<Record<string, unknown>>(t.task_params, {}), survey_vars: parseJsonColumn<Record<string, unknown>[]>(t.survey_vars, []),
      vaults: vaults.filter((v) => v.template_id === t.id).map((v) => ({ name: v.name, type: v.type as 'password', vault_key: name(keyName, v.vault_key_id), script: v.script })),
      cron: plainCron(schedules, t.id),
      workspaces: workspaces.filter((w) => w.template_id === t.id).map((w) => invName.get(w.inventory_id)!).sort(),
      environments: groupsOf(templateGroups, t).map((id) => envName.get(id)!),
      ...(templateKeys.has(t.id) ? { ssh_keys: templateKeys.get(t.id)!.map((id) => keyName.get(id)!) } : {}),
      ...(templateInventories.has(t.id) ? { allowed_inventories: templateInventories.get(t.id)!.map((id) => invName.get(id)!).sort() } : {}),
      ...(templateChannels.has(t.id) ? { alert_channels: templateChannels.get(t.id)! } : {}),
      ...(templateGrants.has(t.id) ? { grants: templateGrants.get(t.id)! } : {}),
    }))),
    schedules: schedules.map((s) => ({
      template: tplName.get(s.template_id)!, name: s.name, cron_format: s.cron_format, type: s.type as '', run_at: s.run_at,
      active: Boolean(s.active), repository: name(repoName, s.repository_id), task_params: parseJsonColumn<Record<string, unknown>>(s.task_params, {}),
      ...(s.timezone ? { timezone: s.timezone } : {}),
    })).sort((a, b) => (a.template + a.name < b.template + b.name ? -1 : a.template + a.name > b.template + b.name ? 1 : 0)),
    integrations: nameSort(integrations.map((i) => ({
      name: integrationName.get(i.id)!, template: tplName.get(i.template_id)!, auth_method: i.auth_method, auth_secret: name(keyName, i.auth_secret_id),
      auth_header: i.auth_header, searchable: Boolean(i.searchable), task_params: parseJsonColumn<Record<string, unknown>>(i.task_params, {}),
      aliases: aliases.filter((a) => a.integration_id === i.id).map((a) => a.alias),
      matchers: matchers.filter((m) => m.integration_id === i.id).map(({ id: _id, integration_id: _i, ...m }) => m),
      extract_values: values.filter((v) => v.integration_id === i.id).map(({ id: _id, integration_id: _i, ...v }) => v),
    }))),
    integration_aliases: aliases.filter((a) => a.integration_id === null).map((a) => a.alias),
    alert_channels: channels.list,
    event_webhooks: await exportEventWebhooks(db, projectId),
    ...(roles.length ? { roles } : {}),
  };
}
