import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';

/** More extra keys than an SSH server tries (MaxAuthTries is 6 by default) would be no use. */
export const MAX_TEMPLATE_SSH_KEYS = 5;

/**
 * Checks a template's extra SSH keys: each an `ssh` key of the project's key store, none twice.
 * @example await checkTemplateSshKeyIds(tx, projectId, [4, 9]);
 */
export async function checkTemplateSshKeyIds(db: Db | Tx, projectId: number, ids: number[]): Promise<number[]> {
  if (ids.length > MAX_TEMPLATE_SSH_KEYS) throw badRequest(`ssh_key_ids: at most ${MAX_TEMPLATE_SSH_KEYS} extra SSH keys`);
  const seen = new Set<number>();
  for (const id of ids) {
    if (seen.has(id)) throw badRequest(`ssh_key_ids: key ${id} is listed twice`);
    seen.add(id);
    const key = await db.selectFrom('access_key').select('type')
      .where('id', '=', id).where('project_id', '=', projectId).where('owner', '=', '').executeTakeFirst();
    if (!key) throw badRequest(`ssh_key_ids: no access key ${id} in this project`);
    if (key.type !== 'ssh') throw badRequest(`ssh_key_ids: key ${id} is not an SSH key`);
  }
  return ids;
}

/** The extra SSH keys of each template, in order; templates without any are absent. */
export async function readTemplateSshKeyIds(db: Db | Tx, templateIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!templateIds.length) return out;
  const rows = await db.selectFrom('template_ssh_key').select(['template_id', 'ssh_key_id'])
    .where('template_id', 'in', templateIds).orderBy('template_id').orderBy('position').execute();
  for (const row of rows) out.set(row.template_id, [...(out.get(row.template_id) ?? []), row.ssh_key_id]);
  return out;
}

/** Makes a template's extra SSH keys exactly `ids`, in that order. */
export async function writeTemplateSshKeyIds(tx: Tx, templateId: number, ids: number[]): Promise<void> {
  await tx.deleteFrom('template_ssh_key').where('template_id', '=', templateId).execute();
  for (const [position, sshKeyId] of ids.entries()) {
    await tx.insertInto('template_ssh_key').values({ template_id: templateId, ssh_key_id: sshKeyId, position }).execute();
  }
}
