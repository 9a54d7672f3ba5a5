import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { recordEvent } from '../events/event.repository.ts';
import { loadProjectRow, type Actor } from '../project-resource.ts';
import { assertProjectKey } from '../keys/project-key-ref.ts';
import { hostValueProblem, type HostConfigInput, type HostConfigRow } from './host-config.ts';

/** The host configs of a project, in the order they were added. */
export function listHostConfigs(db: Db | Tx, projectId: number): Promise<HostConfigRow[]> {
  return db.selectFrom('host_config').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

async function validHostConfigValues(tx: Tx, projectId: number, input: HostConfigInput) {
  const problem = hostValueProblem(input.type, input.host);
  if (problem) throw badRequest(`host: ${problem}`);
  await assertProjectKey(tx, projectId, input.ssh_key_id, 'ssh_key_id', 'ssh');
  return { type: input.type, host: input.host, ssh_key_id: input.ssh_key_id };
}

/** Validates and stores a new host config. */
export async function createHostConfig(tx: Tx, actor: Actor, input: HostConfigInput): Promise<HostConfigRow> {
  const values = await validHostConfigValues(tx, actor.projectId, input);
  const row = await tx.insertInto('host_config').values({ project_id: actor.projectId, ...values }).returningAll().executeTakeFirstOrThrow();
  await recordHostConfigEvent(tx, actor, row, 'created');
  return row;
}

/** Replaces a host config's values. */
export async function updateHostConfig(tx: Tx, actor: Actor, id: number, input: HostConfigInput): Promise<void> {
  await loadProjectRow(tx, 'host_config', actor.projectId, id);
  const values = await validHostConfigValues(tx, actor.projectId, input);
  await tx.updateTable('host_config').set(values).where('id', '=', id).execute();
  await recordHostConfigEvent(tx, actor, { id, host: values.host }, 'updated');
}

/** Deletes a host config; nothing else refers to one. */
export async function deleteHostConfig(tx: Tx, actor: Actor, id: number): Promise<void> {
  const existing = await loadProjectRow(tx, 'host_config', actor.projectId, id);
  await tx.deleteFrom('host_config').where('id', '=', id).execute();
  await recordHostConfigEvent(tx, actor, existing, 'deleted');
}

function recordHostConfigEvent(tx: Tx, actor: Actor, row: Pick<HostConfigRow, 'id' | 'host'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'host_config', objectId: row.id, auditName: row.host,
    description: `Host config ${row.host} ${verb}`,
  });
}
