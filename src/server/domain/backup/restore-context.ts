import type { Tx } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { ApiError, badRequest } from '../../http/errors.ts';
import type { Actor } from '../project-resource.ts';

/** What each restore step needs: the transaction, the new project, and the ids made so far, by name. */
export interface RestoreContext {
  tx: Tx;
  deps: Pick<Deps, 'config' | 'secrets'>;
  actor: Actor;
  /** called after each item written: lets other requests run during a long restore */
  pause: () => Promise<void>;
  ids: {
    environments: Map<string, number>;
    views: Map<string, number>;
    keys: Map<string, number>;
    repositories: Map<string, number>;
    inventories: Map<string, number>;
    templates: Map<string, number>;
    /** secret storages by name (keys point at them) */
    storages: Map<string, number>;
  };
}

/** The id restored under `name`, or null when there is no name. (Verification ran first, so names resolve.) */
export function idOf(map: Map<string, number>, name: string | null | undefined): number | null {
  return name ? map.get(name) ?? null : null;
}

/** Runs `fn`; a 400 it throws gets the backup path in front (`templates[1]: Playbook filename is required`). */
export async function atPath<T>(path: string, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'bad_request' && err.message) throw badRequest(`${path}: ${err.message}`);
    throw err;
  }
}
