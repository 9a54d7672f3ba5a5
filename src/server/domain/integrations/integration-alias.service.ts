import { randomInt } from 'node:crypto';
import type { Db, Tx } from '../../db/database.ts';
import { recordEvent } from '../events/event.repository.ts';
import { auditNothingChanged } from '../audit/audit-context.ts';
import type { Actor } from '../project-resource.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh webhook alias: 16 random characters from `[a-z0-9]`. */
export function generateAlias(): string {
  let alias = '';
  for (let i = 0; i < 16; i++) alias += ALPHABET[randomInt(ALPHABET.length)];
  return alias;
}

/** The public URL of an alias: `<web_host>/api/integrations/<alias>`. */
export function aliasUrl(webHost: string, alias: string): string {
  return `${webHost.replace(/\/+$/, '')}/api/integrations/${alias}`;
}

/** Aliases of the project (integrationId null) or of one integration, as `{id, url}`. */
export async function listAliases(db: Db | Tx, webHost: string, projectId: number, integrationId: number | null) {
  let query = db.selectFrom('integration_alias').select(['id', 'alias']).where('project_id', '=', projectId);
  query = integrationId === null ? query.where('integration_id', 'is', null) : query.where('integration_id', '=', integrationId);
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, url: aliasUrl(webHost, r.alias) }));
}

/** Adds an alias; `alias` may be given (restore), otherwise a random one is made. */
export async function createAlias(tx: Tx, actor: Actor, integrationId: number | null, alias = generateAlias()) {
  const row = await tx.insertInto('integration_alias').values({ alias, project_id: actor.projectId, integration_id: integrationId }).returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, integrationId, objectType: 'integration', objectId: integrationId, description: `Integration alias ${row.id} created` });
  return row;
}

/** Removes an alias of the project (integrationId null) or of the given integration. */
export async function deleteAlias(tx: Tx, actor: Actor, integrationId: number | null, aliasId: number): Promise<void> {
  let query = tx.deleteFrom('integration_alias').where('id', '=', aliasId).where('project_id', '=', actor.projectId);
  query = integrationId === null ? query.where('integration_id', 'is', null) : query.where('integration_id', '=', integrationId);
  const result = await query.executeTakeFirst();
  // an alias already gone is a no-op, as in Semaphore: nothing to record either
  if (Number(result.numDeletedRows) === 0) return auditNothingChanged();
  await recordEvent(tx, { ...actor, integrationId, objectType: 'integration', objectId: integrationId, description: `Integration alias ${aliasId} deleted` });
}
