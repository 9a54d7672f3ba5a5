import { badRequest } from '../../http/errors.ts';
import { verifyRoles, verifyGrants } from './backup-roles.ts';
import type { Backup } from './backup.schema.ts';
import { verifyHostConfigs } from './backup-host-configs.ts';
import { verifySecretStorages } from './backup-secret-storages.ts';
import { verifyWorkflows } from './backup-workflows.ts';
import { verifyAlerts } from './backup-alerts.ts';

type Named = { name?: string | null; title?: string | null };

/**
 * Checks a backup before anything is written (reference §9.2): names unique per section and
 * every name reference resolvable (a grant may name one of the server's roles, `serverRoles`). Messages name the path: `templates[2]: repository "x" does not exist`.
 */
export function verifyBackup(backup: Backup, serverRoles: ReadonlySet<string> = new Set()): void {
  const names = (list: Named[] | null | undefined, section: string, field: 'name' | 'title' = 'name') => {
    const set = new Set<string>();
    for (const [i, item] of (list ?? []).entries()) {
      const value = item[field]!;
      if (set.has(value)) throw badRequest(`${section}[${i}]: ${field} "${value}" is used twice`);
      set.add(value);
    }
    return set;
  };
  const keys = names(backup.keys, 'keys');
  const repositories = names(backup.repositories, 'repositories');
  const inventories = names(backup.inventories, 'inventories');
  const environments = names(backup.environments, 'environments');
  const views = names(backup.views, 'views', 'title');
  const templates = names(backup.templates, 'templates');
  names(backup.integrations, 'integrations');

  const exists = (at: string, field: string, value: string | null | undefined, set: Set<string>) => {
    if (value !== null && value !== undefined && value !== '' && !set.has(value)) throw badRequest(`${at}: ${field} "${value}" does not exist`);
  };

  for (const [i, repo] of (backup.repositories ?? []).entries()) {
    if (!repo.ssh_key) throw badRequest(`repositories[${i}]: ssh_key is required`);
    exists(`repositories[${i}]`, 'ssh_key', repo.ssh_key, keys);
  }
  verifyHostConfigs(backup.host_configs, keys);
  verifyRoles(backup.roles);
  verifyGrants('templates', backup.templates, backup.roles, serverRoles);
  verifyGrants('views', backup.views, backup.roles, serverRoles);
  verifySecretStorages(backup.secret_storages, backup.keys);
  verifyWorkflows(backup.workflows, templates);
  verifyAlerts(backup.alert_channels, backup.event_webhooks, backup.templates);
  for (const [i, inv] of (backup.inventories ?? []).entries()) {
    exists(`inventories[${i}]`, 'ssh_key', inv.ssh_key, keys);
    exists(`inventories[${i}]`, 'become_key', inv.become_key, keys);
    exists(`inventories[${i}]`, 'source_key', inv.source_key, keys);
    exists(`inventories[${i}]`, 'repository', inv.repository, repositories);
    exists(`inventories[${i}]`, 'holder', inv.holder, templates);
  }
  const templateType = new Map((backup.templates ?? []).map((t) => [t.name, t.type ?? '']));
  for (const [i, tpl] of (backup.templates ?? []).entries()) {
    const at = `templates[${i}]`;
    if (!tpl.repository) throw badRequest(`${at}: repository is required`);
    exists(at, 'repository', tpl.repository, repositories);
    exists(at, 'inventory', tpl.inventory, inventories);
    exists(at, 'environment', tpl.environment, environments);
    exists(at, 'view', tpl.view, views);
    exists(at, 'vault_key', tpl.vault_key, keys);
    for (const [j, vault] of (tpl.vaults ?? []).entries()) exists(`${at}.vaults[${j}]`, 'vault_key', vault.vault_key, keys);
    for (const ws of tpl.workspaces ?? []) exists(at, 'workspace', ws, inventories);
    for (const env of tpl.environments ?? []) exists(at, 'environment', env, environments);
    for (const key of tpl.ssh_keys ?? []) exists(at, 'ssh_key', key, keys);
    for (const inventory of tpl.allowed_inventories ?? []) exists(at, 'allowed_inventories', inventory, inventories);
    if (tpl.type === 'deploy') {
      if (!tpl.build_template) throw badRequest(`${at}: a deploy template needs a build_template`);
      exists(at, 'build_template', tpl.build_template, templates);
      if (templateType.get(tpl.build_template) !== 'build') throw badRequest(`${at}: build_template "${tpl.build_template}" is not a build template`);
    }
  }
  for (const [i, schedule] of (backup.schedules ?? []).entries()) {
    exists(`schedules[${i}]`, 'template', schedule.template, templates);
    exists(`schedules[${i}]`, 'repository', schedule.repository, repositories);
  }
  for (const [i, integration] of (backup.integrations ?? []).entries()) {
    exists(`integrations[${i}]`, 'template', integration.template, templates);
    exists(`integrations[${i}]`, 'auth_secret', integration.auth_secret, keys);
  }
}
