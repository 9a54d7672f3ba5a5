import type { Tx } from '../../db/database.ts';
import { recordEvent } from '../events/event.repository.ts';
import { integrationValues } from '../integrations/integration.service.ts';
import { extractValueValues, matcherValues } from '../integrations/integration-parts.service.ts';
import { generateAlias } from '../integrations/integration-alias.service.ts';
import type { Backup } from './backup.schema.ts';
import { atPath, idOf, type RestoreContext } from './restore-context.ts';

/** Restores integrations with their matchers, extracted values and aliases, then the project aliases. */
export async function restoreIntegrations(ctx: RestoreContext, backup: Backup): Promise<void> {
  const { tx, actor, ids } = ctx;
  for (const [i, integration] of (backup.integrations ?? []).entries()) {
    const at = `integrations[${i}]`;
    const values = await atPath(at, () => integrationValues(tx, actor.projectId, {
      name: integration.name, template_id: idOf(ids.templates, integration.template)!, auth_method: (integration.auth_method ?? 'none') as 'none',
      auth_secret_id: idOf(ids.keys, integration.auth_secret), auth_header: integration.auth_header ?? null,
      searchable: integration.searchable ?? false, task_params: integration.task_params ?? {},
    }));
    const row = await tx.insertInto('integration').values({ ...values, project_id: actor.projectId, owner_id: actor.userId }).returningAll().executeTakeFirstOrThrow();
    await recordEvent(tx, { ...actor, integrationId: row.id, objectType: 'integration', objectId: row.id, description: `Integration ${row.name} created` });
    for (const [j, m] of (integration.matchers ?? []).entries()) {
      const mv = await atPath(`${at}.matchers[${j}]`, () => matcherValues(m as never));
      await tx.insertInto('integration_matcher').values({ ...mv, integration_id: row.id }).execute();
    }
    for (const [j, v] of (integration.extract_values ?? []).entries()) {
      const vv = await atPath(`${at}.extract_values[${j}]`, () => extractValueValues(v as never));
      await tx.insertInto('integration_extract_value').values({ ...vv, integration_id: row.id }).execute();
    }
    for (const alias of integration.aliases ?? []) await insertAlias(tx, actor.projectId, row.id, alias);
    await ctx.pause();
  }
  for (const alias of backup.integration_aliases ?? []) {
    await insertAlias(tx, actor.projectId, null, alias);
    await ctx.pause();
  }
}

/** Keeps the backed-up alias when it is free on this server (aliases are global), else makes a new one. */
async function insertAlias(tx: Tx, projectId: number, integrationId: number | null, alias: string) {
  const valid = /^[a-z0-9]{4,64}$/.test(alias);
  const taken = valid && await tx.selectFrom('integration_alias').select('id').where('alias', '=', alias).executeTakeFirst();
  await tx.insertInto('integration_alias').values({ alias: valid && !taken ? alias : generateAlias(), project_id: projectId, integration_id: integrationId }).execute();
}
