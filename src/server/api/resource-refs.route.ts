import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam } from '../http/validation.ts';
import { loadProjectRow, type ProjectTable } from '../domain/project-resource.ts';
import { findProjectKey } from '../domain/keys/access-key.service.ts';
import { findResourceRefs, type RefKind } from '../domain/refs/resource-refs.ts';

const TABLE_OF: Record<RefKind, ProjectTable> = { key: 'access_key', repository: 'repository', inventory: 'inventory', environment: 'environment' };

/**
 * Handler for `GET .../{id}/refs` of a resource kind: 404 when the resource is not in the
 * project, else the referencing objects.
 * @example keysRoutes.get('/:key_id/refs', refsHandler('key', 'key_id'));
 */
export function refsHandler(kind: RefKind, param: string) {
  return async function listResourceRefs(c: Context<AppEnv>) {
    const { db } = c.var.deps;
    const id = idParam(c, param);
    // Key refs go through the key-store lookup, so environment secrets stay invisible.
    if (kind === 'key') await findProjectKey(db, c.var.project.id, id);
    else await loadProjectRow(db, TABLE_OF[kind], c.var.project.id, id);
    return c.json(await findResourceRefs(db, c.var.project.id, kind, id));
  };
}
