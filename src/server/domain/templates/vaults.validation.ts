import type { Db, Tx } from '../../db/database.ts';
import { checkRepoPath } from '../shared/repo-path.ts';
import { badRequest } from '../../http/errors.ts';
import { requireInProject } from '../shared/project-refs.ts';
import type { VaultInput } from './template.ts';

/** A vault ready to insert (after the name/type rules of seed 001 §5). */
export interface VaultValues {
  /** id of an existing vault of the template to keep (update in place) */
  id?: number;
  vault_key_id: number | null;
  name: string | null;
  type: string;
  script: string | null;
}

/**
 * Vault rules (seed 001 §5): names trimmed and lower-cased; unique; one unnamed default vault;
 * a type; `password` needs a key of the project; `script` needs a `*-client[.ext]` script.
 */
export async function validateVaults(db: Db | Tx, projectId: number, vaults: VaultInput[]): Promise<VaultValues[]> {
  const seen = new Set<string>();
  const result: VaultValues[] = [];
  for (const [i, vault] of vaults.entries()) {
    const at = `vaults[${i}]`;
    const name = vault.name?.trim().toLowerCase() || null;
    const key = name ?? '';
    if (seen.has(key)) throw badRequest(name === null ? `${at}: Only one default (unnamed) vault is allowed` : `${at}: Vault name must be unique`);
    seen.add(key);
    if (vault.type === null || vault.type === '') throw badRequest(`${at}: Vault type is required`);
    const type = vault.type ?? 'password';
    if (type === 'password') {
      if (!vault.vault_key_id) throw badRequest(`${at}: Vault password key is required`);
      await requireInProject(db, 'access_key', vault.vault_key_id, projectId, `${at}.vault_key_id`);
      result.push({ id: vault.id, name, type, vault_key_id: vault.vault_key_id, script: null });
    } else {
      const script = vault.script?.trim() ?? '';
      if (!script) throw badRequest(`${at}: Vault script is required`);
      if (!/-client(\.[^/\\.]+)?$/.test(script)) throw badRequest(`${at}: Vault script name must end with -client (optionally followed by an extension)`);
      checkRepoPath(script, `${at}.script`);
      result.push({ id: vault.id, name, type, vault_key_id: null, script });
    }
  }
  return result;
}
