import type { Tx } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import type { ProjectRow } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { now, toFlag } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { Backup } from './backup.schema.ts';
import { verifyBackup } from './backup.verify.ts';
import type { RestoreContext } from './restore-context.ts';
import { restoreResources } from './restore-resources.ts';
import { restoreTemplates } from './restore-templates.ts';
import { restoreIntegrations } from './restore-integrations.ts';
import { timeSlicer } from '../../lib/time-slice.ts';
import { restoreHostConfigs } from './backup-host-configs.ts';
import { restoreSecretStorages } from './backup-secret-storages.ts';
import { restoreWorkflows } from './backup-workflows.ts';
import { restoreAlerts, restoreTemplateChannels } from './backup-alerts.ts';
import { restoreGrants, restoreRoles } from './backup-roles.ts';
import { serverRoleSlugs } from '../roles/server-role.service.ts';

/**
 * Creates a new project from a backup (reference §9.2), owned by `userId`, inside the caller's
 * transaction: verification first, then variable groups, views, keys, repositories,
 * inventories, alert channels and event webhooks, templates (with their channel choices),
 * schedules, integrations and aliases. The default "None" key and
 * "Empty" group are not added. Any error aborts the transaction, so a failed restore leaves
 * nothing behind. Each item written yields to other requests when its time slice is used up.
 * @returns the project and how many keys came back without the secret their type needs
 * @example await db.transaction().execute((tx) => restoreProject(tx, deps, backup, user.id));
 */
export async function restoreProject(tx: Tx, deps: Pick<Deps, 'config' | 'secrets'>, backup: Backup, userId: number): Promise<{ project: ProjectRow; emptyKeys: number }> {
  const serverRoles = await serverRoleSlugs(tx);
  verifyBackup(backup, serverRoles);
  const name = backup.meta.name?.trim();
  if (!name) throw badRequest('meta.name: required');
  const project = await tx.insertInto('project').values({
    name, created: now(), alert: toFlag(backup.meta.alert), alert_chat: backup.meta.alert_chat ?? null,
    max_parallel_tasks: backup.meta.max_parallel_tasks ?? 0, type: backup.meta.type ?? '', executor_image: backup.meta.executor_image?.trim() || null,
  }).returningAll().executeTakeFirstOrThrow();
  await tx.insertInto('project_user').values({ project_id: project.id, user_id: userId, role: 'owner', created: now() }).execute();
  const ctx: RestoreContext = {
    tx, deps, actor: { projectId: project.id, userId }, pause: timeSlicer(),
    ids: { environments: new Map(), views: new Map(), keys: new Map(), repositories: new Map(), inventories: new Map(), templates: new Map(), storages: new Map() },
  };
  await recordEvent(tx, { ...ctx.actor, objectType: 'project', objectId: project.id, description: 'Project created' });
  ctx.ids.storages = await restoreSecretStorages(ctx, backup.secret_storages);
  await restoreResources(ctx, backup);
  await restoreHostConfigs(ctx, backup.host_configs);
  const channels = await restoreAlerts(ctx, backup.alert_channels, backup.event_webhooks);
  await restoreTemplates(ctx, backup);
  await restoreTemplateChannels(ctx, channels, backup.templates);
  await restoreIntegrations(ctx, backup);
  await restoreWorkflows(ctx, backup.workflows);
  await restoreRoles(ctx, backup.roles, serverRoles);
  await restoreGrants(ctx, backup);
  return { project, emptyKeys: (backup.keys ?? []).filter((k) => k.type !== 'none').length };
}
