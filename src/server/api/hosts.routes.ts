import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { HOST_RESULTS, listProjectHosts, projectHost } from '../engine/inventory/project-hosts.ts';
import type { HostResult } from '../domain/tasks/host-results.ts';
import { limitQuery } from './route-context.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';
import { seesTemplate, type TemplateScope } from '../domain/templates/template-visibility.ts';

const PAGE_MAX = 500;
const PAGE_DEFAULT = 50;
const QUERY_MAX = 255;

/** Results and runs of templates the caller sees (domain/templates/template-visibility.ts). */
function seenOnly<T extends { template_id: number }>(scope: TemplateScope, rows: T[]): T[] {
  return rows.filter((row) => seesTemplate(scope, row.template_id));
}

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
  const page = await listProjectHosts(c.var.deps, c.var.project.id, {
    q, inventoryId: rawInventory ? Number(rawInventory) : undefined, result: result as HostResult | undefined,
    offset: Number(rawOffset), limit: limitQuery(c, PAGE_MAX, PAGE_DEFAULT),
  });
  const scope = await templateScopeOf(c);
  return c.json({ ...page, hosts: page.hosts.map((host) => ({ ...host, results: seenOnly(scope, host.results) })) });
});

/** One host: its groups, inventories, last result per template and newest runs; 404 when nothing knows it. */
hostsRoutes.get('/:host', async (c) => {
  const name = c.req.param('host');
  if (!name || name.length > QUERY_MAX) throw badRequest(`host: 1 to ${QUERY_MAX} characters`);
  const host = await projectHost(c.var.deps, c.var.project.id, name);
  const scope = await templateScopeOf(c);
  const tasks = seenOnly(scope, host?.tasks ?? []);
  // a host only runs of unseen templates know is, to this caller, unknown
  if (!host || (!host.inventories.length && !tasks.length)) throw notFound('host');
  return c.json({ ...host, results: seenOnly(scope, host.results), tasks });
});
