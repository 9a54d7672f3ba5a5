import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { HOST_RESULTS, listProjectHosts, projectHost } from '../engine/inventory/project-hosts.ts';
import type { HostResult } from '../domain/tasks/host-results.ts';
import { limitQuery } from './route-context.ts';

const PAGE_MAX = 500;
const PAGE_DEFAULT = 50;
const QUERY_MAX = 255;

/** `/api/project/:project_id/hosts`: the Hosts view. */
export const hostsRoutes = new Hono<AppEnv>();

/**
 * Every host of the project's Ansible inventories: `{hosts, total, errors}`, by name;
 * `?q=` (part of the name), `?inventory_id=`, `?result=` (failed, unreachable, changed, ok),
 * `?offset=`, `?limit=` (1..500, default 50).
 */
hostsRoutes.get('/', async (c) => {
  const q = c.req.query('q') ?? '';
  if (q.length > QUERY_MAX) throw badRequest(`q: at most ${QUERY_MAX} characters`);
  const rawInventory = c.req.query('inventory_id');
  if (rawInventory && !/^\d{1,9}$/.test(rawInventory)) throw badRequest('inventory_id: must be an id');
  const result = c.req.query('result') || undefined;
  if (result !== undefined && !(HOST_RESULTS as readonly string[]).includes(result)) throw badRequest(`result: one of ${HOST_RESULTS.join(', ')}`);
  const rawOffset = c.req.query('offset') ?? '0';
  if (!/^\d{1,9}$/.test(rawOffset)) throw badRequest('offset: must be a whole number below 1000000000');
  return c.json(await listProjectHosts(c.var.deps, c.var.project.id, {
    q, inventoryId: rawInventory ? Number(rawInventory) : undefined, result: result as HostResult | undefined,
    offset: Number(rawOffset), limit: limitQuery(c, PAGE_MAX, PAGE_DEFAULT),
  }));
});

/** One host: its groups, inventories, last result per template and newest runs; 404 when nothing knows it. */
hostsRoutes.get('/:host', async (c) => {
  const name = c.req.param('host');
  if (!name || name.length > QUERY_MAX) throw badRequest(`host: 1 to ${QUERY_MAX} characters`);
  const host = await projectHost(c.var.deps, c.var.project.id, name);
  if (!host) throw notFound('host');
  return c.json(host);
});
