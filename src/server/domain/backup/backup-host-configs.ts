import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { recordEvent } from '../events/event.repository.ts';
import { HOST_CONFIG_TYPES, hostValueProblem } from '../host-configs/host-config.ts';
import { idOf, type RestoreContext } from './restore-context.ts';

/**
 * Host configs in a backup (`host_configs`, Signalbox's section: Semaphore 2.20's backup has
 * none). The key goes by name like every reference; its secret never travels.
 */
export const backupHostConfigSchema = z.looseObject({ type: z.enum(HOST_CONFIG_TYPES), host: z.string(), ssh_key: z.string() });
type BackupHostConfig = z.infer<typeof backupHostConfigSchema>;

/** The project's host configs with their key names, in the order they were added. */
export async function exportHostConfigs(db: Db, projectId: number, keyName: Map<number, string>): Promise<BackupHostConfig[]> {
  const rows = await db.selectFrom('host_config').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  return rows.map((r) => ({ type: r.type as BackupHostConfig['type'], host: r.host, ssh_key: keyName.get(r.ssh_key_id)! }));
}

/** Before anything is written: each entry's host fits its type and its key is in the backup. */
export function verifyHostConfigs(list: BackupHostConfig[] | null | undefined, keys: Set<string>): void {
  for (const [i, config] of (list ?? []).entries()) {
    const problem = hostValueProblem(config.type, config.host.trim());
    if (problem) throw badRequest(`host_configs[${i}]: host ${problem}`);
    if (!keys.has(config.ssh_key)) throw badRequest(`host_configs[${i}]: ssh_key "${config.ssh_key}" does not exist`);
  }
}

/** Restores the host configs onto the keys restored by name. */
export async function restoreHostConfigs(ctx: RestoreContext, list: BackupHostConfig[] | null | undefined): Promise<void> {
  const { tx, actor } = ctx;
  for (const config of list ?? []) {
    const row = await tx.insertInto('host_config').values({
      project_id: actor.projectId, type: config.type, host: config.host.trim(), ssh_key_id: idOf(ctx.ids.keys, config.ssh_key)!,
    }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, objectType: 'host_config', objectId: row.id, description: `Host config ${row.host} created` });
    await ctx.pause();
  }
}
