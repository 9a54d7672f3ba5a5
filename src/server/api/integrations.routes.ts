import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { Db, Tx } from '../db/database.ts';
import { idParam, readJson } from '../http/validation.ts';
import {
  extractValueInputSchema, extractValueRowToExtractValue, integrationInputSchema, integrationRowToIntegration,
  matcherInputSchema, matcherRowToMatcher,
} from '../domain/integrations/integration.ts';
import {
  createIntegration, deleteIntegration, findIntegration, findIntegrationRefs, listIntegrations, updateIntegration,
} from '../domain/integrations/integration.service.ts';
import {
  createExtractValue, createMatcher, deleteExtractValue, deleteMatcher, findExtractValue, findMatcher,
  listExtractValues, listMatchers, updateExtractValue, updateMatcher,
} from '../domain/integrations/integration-parts.service.ts';
import { aliasUrl, createAlias, deleteAlias, listAliases } from '../domain/integrations/integration-alias.service.ts';
import { actorOf } from './route-context.ts';


/** '/api/project/:project_id/integrations': incoming webhooks, their matchers, values and aliases (reference §3.11, §7). */
export const integrationsRoutes = new Hono<AppEnv>();

/** The URL's integration, read through `db` (pass the transaction inside one: SQLite has one connection). */
function integrationOf(c: Context<AppEnv>, db: Db | Tx = c.var.deps.db) {
  return findIntegration(db, c.var.project.id, idParam(c, 'integration_id'));
}

// Project-level aliases come first: "aliases" must not be read as an integration id.
// An alias URL is the webhook's credential: only those who may change the webhooks see it.
integrationsRoutes.get('/aliases', async (c) => c.json(await listAliases(c.var.deps.db, c.var.deps.config.web_host, c.var.project.id, null)));

integrationsRoutes.post('/aliases', async (c) => {
  const row = await c.var.deps.db.transaction().execute((tx) => createAlias(tx, actorOf(c), null));
  return c.json({ id: row.id, url: aliasUrl(c.var.deps.config.web_host, row.alias) }, 200);
});

integrationsRoutes.delete('/aliases/:alias_id', async (c) => {
  const aliasId = idParam(c, 'alias_id');
  await c.var.deps.db.transaction().execute((tx) => deleteAlias(tx, actorOf(c), null, aliasId));
  return c.body(null, 204);
});

integrationsRoutes.get('/', async (c) =>
  c.json((await listIntegrations(c.var.deps.db, c.var.project.id, c.req.query('order') === 'desc' ? 'desc' : 'asc')).map(integrationRowToIntegration)));

integrationsRoutes.post('/', async (c) => {
  const input = await readJson(c, integrationInputSchema);
  const row = await c.var.deps.db.transaction().execute((tx) => createIntegration(tx, actorOf(c), input));
  return c.json(integrationRowToIntegration(row), 201);
});

integrationsRoutes.get('/:integration_id', async (c) => c.json(integrationRowToIntegration(await integrationOf(c))));

integrationsRoutes.put('/:integration_id', async (c) => {
  const input = await readJson(c, integrationInputSchema);
  await c.var.deps.db.transaction().execute(async (tx) => updateIntegration(tx, actorOf(c), await integrationOf(c, tx), input));
  return c.body(null, 204);
});

integrationsRoutes.delete('/:integration_id', async (c) => {
  await c.var.deps.db.transaction().execute(async (tx) => deleteIntegration(tx, actorOf(c), await integrationOf(c, tx)));
  return c.body(null, 204);
});

integrationsRoutes.get('/:integration_id/refs', async (c) => c.json(await findIntegrationRefs(c.var.deps.db, (await integrationOf(c)).id)));

// Matchers
integrationsRoutes.get('/:integration_id/matchers', async (c) =>
  c.json((await listMatchers(c.var.deps.db, (await integrationOf(c)).id)).map(matcherRowToMatcher)));

integrationsRoutes.post('/:integration_id/matchers', async (c) => {
  const input = await readJson(c, matcherInputSchema);
  const row = await c.var.deps.db.transaction().execute(async (tx) => createMatcher(tx, actorOf(c), await integrationOf(c, tx), input));
  return c.json(matcherRowToMatcher(row), 200);
});

integrationsRoutes.get('/:integration_id/matchers/:matcher_id', async (c) =>
  c.json(matcherRowToMatcher(await findMatcher(c.var.deps.db, (await integrationOf(c)).id, idParam(c, 'matcher_id')))));

integrationsRoutes.put('/:integration_id/matchers/:matcher_id', async (c) => {
  const input = await readJson(c, matcherInputSchema);
  await c.var.deps.db.transaction().execute(async (tx) => {
    const integration = await integrationOf(c, tx);
    await updateMatcher(tx, actorOf(c), integration, await findMatcher(tx, integration.id, idParam(c, 'matcher_id')), input);
  });
  return c.body(null, 204);
});

integrationsRoutes.delete('/:integration_id/matchers/:matcher_id', async (c) => {
  await c.var.deps.db.transaction().execute(async (tx) => {
    const integration = await integrationOf(c, tx);
    await deleteMatcher(tx, actorOf(c), integration, await findMatcher(tx, integration.id, idParam(c, 'matcher_id')));
  });
  return c.body(null, 204);
});

// Extracted values
integrationsRoutes.get('/:integration_id/values', async (c) =>
  c.json((await listExtractValues(c.var.deps.db, (await integrationOf(c)).id)).map(extractValueRowToExtractValue)));

integrationsRoutes.post('/:integration_id/values', async (c) => {
  const input = await readJson(c, extractValueInputSchema);
  const row = await c.var.deps.db.transaction().execute(async (tx) => createExtractValue(tx, actorOf(c), await integrationOf(c, tx), input));
  return c.json(extractValueRowToExtractValue(row), 201);
});

integrationsRoutes.get('/:integration_id/values/:value_id', async (c) =>
  c.json(extractValueRowToExtractValue(await findExtractValue(c.var.deps.db, (await integrationOf(c)).id, idParam(c, 'value_id')))));

integrationsRoutes.put('/:integration_id/values/:value_id', async (c) => {
  const input = await readJson(c, extractValueInputSchema);
  await c.var.deps.db.transaction().execute(async (tx) => {
    const integration = await integrationOf(c, tx);
    await updateExtractValue(tx, actorOf(c), integration, await findExtractValue(tx, integration.id, idParam(c, 'value_id')), input);
  });
  return c.body(null, 204);
});

integrationsRoutes.delete('/:integration_id/values/:value_id', async (c) => {
  await c.var.deps.db.transaction().execute(async (tx) => {
    const integration = await integrationOf(c, tx);
    await deleteExtractValue(tx, actorOf(c), integration, await findExtractValue(tx, integration.id, idParam(c, 'value_id')));
  });
  return c.body(null, 204);
});

// Aliases of one integration
integrationsRoutes.get('/:integration_id/aliases', async (c) =>
  c.json(await listAliases(c.var.deps.db, c.var.deps.config.web_host, c.var.project.id, (await integrationOf(c)).id)));

integrationsRoutes.post('/:integration_id/aliases', async (c) => {
  const row = await c.var.deps.db.transaction().execute(async (tx) => createAlias(tx, actorOf(c), (await integrationOf(c, tx)).id));
  return c.json({ id: row.id, url: aliasUrl(c.var.deps.config.web_host, row.alias) }, 200);
});

integrationsRoutes.delete('/:integration_id/aliases/:alias_id', async (c) => {
  const aliasId = idParam(c, 'alias_id');
  await c.var.deps.db.transaction().execute(async (tx) => deleteAlias(tx, actorOf(c), (await integrationOf(c, tx)).id, aliasId));
  return c.body(null, 204);
});
