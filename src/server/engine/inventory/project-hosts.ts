import type { Deps } from '../../deps.ts';
import { hostHistories, type HostResult, type HostTemplateResult } from '../../domain/tasks/host-results.ts';
export { HOST_RESULTS } from '../../domain/tasks/host-results.ts';
import { readInventoryHosts } from './ansible-inventory.ts';

const ANSIBLE_TYPES = ['static', 'static-yaml', 'file', 'url', 'script'];

export interface ProjectHost {
  name: string;
  /** every group it is in, across the inventories */
  groups: string[];
  inventories: { id: number; name: string }[];
  /** its last result per template, newest first */
  results: HostTemplateResult[];
  last_seen: string | null;
}

export interface HostsQuery {
  /** part of the name, any case */
  q?: string;
  inventoryId?: number;
  /** hosts whose last run of some template ended so */
  result?: HostResult;
  offset: number;
  limit: number;
}

export interface HostsPage {
  hosts: ProjectHost[];
  total: number;
  /** inventories Ansible could not read: their hosts are missing from the list */
  errors: { inventory_id: number; inventory_name: string; error: string }[];
}

/**
 * Every host of every Ansible inventory of the project (as ansible-inventory reads them), with
 * its groups, inventories, last result per template and when it was last reached; filtered,
 * sorted by name, one page.
 * @example await listProjectHosts(deps, 1, { q: 'web', offset: 0, limit: 50 })
 */
export async function listProjectHosts(deps: Deps, projectId: number, query: HostsQuery): Promise<HostsPage> {
  let inventories = deps.db.selectFrom('inventory').selectAll().where('project_id', '=', projectId).where('type', 'in', ANSIBLE_TYPES);
  if (query.inventoryId !== undefined) inventories = inventories.where('id', '=', query.inventoryId);
  const hosts = new Map<string, ProjectHost>();
  const errors: HostsPage['errors'] = [];
  // one after the other: each read is an ansible-inventory process on a small machine
  for (const inventory of await inventories.orderBy('name').orderBy('id').execute()) {
    try {
      for (const host of (await readInventoryHosts(deps, inventory)).hosts) {
        const entry = hosts.get(host.name) ?? { name: host.name, groups: [], inventories: [], results: [], last_seen: null };
        hosts.set(host.name, entry);
        entry.groups = [...new Set([...entry.groups, ...host.groups])].sort();
        entry.inventories.push({ id: inventory.id, name: inventory.name });
      }
    } catch (err) {
      errors.push({ inventory_id: inventory.id, inventory_name: inventory.name, error: (err as Error).message });
    }
  }
  const histories = await hostHistories(deps.db, projectId);
  const q = query.q?.trim().toLowerCase();
  const matching = [...hosts.values()].filter((host) => {
    const history = histories.get(host.name);
    host.results = history?.results ?? [];
    host.last_seen = history?.lastSeen ?? null;
    if (q && !host.name.toLowerCase().includes(q)) return false;
    return !query.result || host.results.some((r) => r.result === query.result);
  }).sort((a, b) => a.name.localeCompare(b.name));
  return { hosts: matching.slice(query.offset, query.offset + query.limit), total: matching.length, errors };
}
