import type { Db, Tx } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';

/**
 * Survey-secret values of queued tasks. They are used for the run and never kept: they wait
 * here, in memory, until the task starts, and — since with several servers on one database
 * another server may claim the task — sealed in `task_secret` until an engine claims it (the
 * claim deletes the row; so does deleting the task). A task that ends without starting drops
 * them too.
 */
const pending = new Map<number, Record<string, string>>();

/** Holds the values in memory and, sealed, in the queuing transaction `tx`. */
export async function holdTaskSecrets(tx: Db | Tx, box: SecretBox, taskId: number, secrets: Record<string, string>): Promise<void> {
  if (!Object.keys(secrets).length) return;
  await tx.insertInto('task_secret').values({ task_id: taskId, sealed: box.seal(JSON.stringify(secrets)) }).execute();
  pending.set(taskId, secrets);
}

/**
 * Called by the engine that just claimed the task: deletes the sealed row and, when the values
 * are not in this process's memory (another server queued the task), puts them there.
 */
export async function claimTaskSecrets(deps: { db: Db; secrets: SecretBox }, taskId: number): Promise<void> {
  const row = await deps.db.deleteFrom('task_secret').where('task_id', '=', taskId).returning('sealed').executeTakeFirst();
  if (row && !pending.has(taskId)) pending.set(taskId, JSON.parse(deps.secrets.open(row.sealed)) as Record<string, string>);
}

export function takeTaskSecrets(taskId: number): Record<string, string> {
  const secrets = pending.get(taskId) ?? {};
  pending.delete(taskId);
  return secrets;
}

/** The task ended (wherever it ran): forget what this process still holds for it. */
export function dropTaskSecrets(taskId: number): void {
  pending.delete(taskId);
}
