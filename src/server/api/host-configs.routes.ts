import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl, loadProjectRow } from '../domain/project-resource.ts';
import { hostConfigInputSchema, hostConfigRowToHostConfig } from '../domain/host-configs/host-config.ts';
import { createHostConfig, deleteHostConfig, listHostConfigs, updateHostConfig } from '../domain/host-configs/host-config.service.ts';

/** `/api/project/:project_id/host_configs`: which SSH key reaches which host or git URL (Semaphore 2.20). */
export const hostConfigsRoutes = new Hono<AppEnv>();

hostConfigsRoutes.get('/', async (c) => {
  const rows = await listHostConfigs(c.var.deps.db, c.var.project.id);
  return c.json(rows.map(hostConfigRowToHostConfig));
});

hostConfigsRoutes.post('/', async (c) => {
  const input = await readJson(c, hostConfigInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const row = await c.var.deps.db.transaction().execute((tx) => createHostConfig(tx, actorOf(c), input));
  return c.json(hostConfigRowToHostConfig(row), 201);
});

hostConfigsRoutes.get('/:host_config_id', async (c) => {
  const row = await loadProjectRow(c.var.deps.db, 'host_config', c.var.project.id, idParam(c, 'host_config_id'));
  return c.json(hostConfigRowToHostConfig(row));
});

hostConfigsRoutes.put('/:host_config_id', async (c) => {
  const id = idParam(c, 'host_config_id');
  const input = await readJson(c, hostConfigInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  await c.var.deps.db.transaction().execute((tx) => updateHostConfig(tx, actorOf(c), id, input));
  return c.body(null, 204);
});

hostConfigsRoutes.delete('/:host_config_id', async (c) => {
  const id = idParam(c, 'host_config_id');
  await c.var.deps.db.transaction().execute((tx) => deleteHostConfig(tx, actorOf(c), id));
  return c.body(null, 204);
});
