import type { Deps } from '../../deps.ts';
import { hostHistories, resultOf, type HostResult, type HostTemplateResult } from '../../domain/tasks/host-results.ts';
export { HOST_RESULTS } from '../../domain/tasks/host-results.ts';
import { hostFactsOf, type HostFacts } from '../../domain/tasks/host-facts.ts';
import { readInventoryHosts } from './ansible-inventory.ts';

/** the order of localeCompare, one collator for every comparison */
const BY_NAME = new Intl.Collator();
/** up to this many hosts their histories are read by name; more, the project's at once */
const HISTORY_BY_NAME_MAX = 500;
const ANSIBLE_TYPES = ['static', 'static-yaml', 'file', 'url', 'script'];

export interface ProjectHost {
  name: string;
  /** every group it is in, across the inventories */
  groups: string[];
  inventories: { id: number; name: string }[];
  /** its last result per template, newest first */
  results: HostTemplateResult[];
  last_seen: string | null;
  /** what fact gathering reported in the newest run that gathered it; null: never gathered */
  facts: HostFacts | null;
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
        const entry = hosts.get(host.name) ?? { name: host.name, groups: [], inventories: [], results: [], last_seen: null, facts: null };
        hosts.set(host.name, entry);
        entry.groups = [...new Set([...entry.groups, ...host.groups])].sort();
        entry.inventories.push({ id: inventory.id, name: inventory.name });
      }
    } catch (err) {
      errors.push({ inventory_id: inventory.id, inventory_name: inventory.name, error: (err as Error).message });
    }
  }
  const q = query.q?.trim().toLowerCase();
  const named = [...hosts.values()].filter((host) => !q || host.name.toLowerCase().includes(q)).sort((a, b) => BY_NAME.compare(a.name, b.name));
  // without a result filter only the page's hosts need their history
  const page = query.result ? named : named.slice(query.offset, query.offset + query.limit);
  const histories = await hostHistories(deps.db, projectId, query.result || page.length > HISTORY_BY_NAME_MAX ? undefined : page.map((h) => h.name));
  for (const host of page) {
    const history = histories.get(host.name);
    host.results = history?.results ?? [];
    host.last_seen = history?.lastSeen ?? null;
  }
  const matching = query.result ? page.filter((host) => host.results.some((r) => r.result === query.result)) : page;
  const shown = query.result ? matching.slice(query.offset, query.offset + query.limit) : page;
  const facts = await hostFactsOf(deps.db, projectId, shown.length > HISTORY_BY_NAME_MAX ? undefined : shown.map((h) => h.name));
  for (const host of shown) host.facts = facts.get(host.name) ?? null;
  return { hosts: shown, total: query.result ? matching.length : named.length, errors };
}

/** One run of a template on a host, from its PLAY RECAP line. */
export interface HostRun { task_id: number; template_id: number; template_name: string; result: HostResult; time: string }

export interface HostDetail extends ProjectHost {
  /** its newest runs, newest first */
  tasks: HostRun[];
  errors: HostsPage['errors'];
}

const RECENT_RUNS = 20;

/**
 * One host of the project: its groups and inventories (as in the Hosts view), its last result
 * per template and its newest runs; null when no inventory lists it and no run recorded it.
 * @example (await projectHost(deps, 1, 'web1'))?.tasks[0]?.result // 'failed'
 */
export async function projectHost(deps: Deps, projectId: number, name: string): Promise<HostDetail | null> {
  const page = await listProjectHosts(deps, projectId, { q: name, offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const listed = page.hosts.find((h) => h.name === name);
  const runs = await deps.db.selectFrom('task_ansible_host as h').innerJoin('task', 'task.id', 'h.task_id').innerJoin('template', 'template.id', 'task.template_id')
    .select(['h.task_id', 'h.failed', 'h.unreachable', 'h.changed', 'h.created', 'task.template_id', 'template.name as template_name'])
    .where('h.project_id', '=', projectId).where('h.host', '=', name).orderBy('h.id', 'desc').limit(RECENT_RUNS).execute();
  if (!listed && runs.length === 0) return null;
  const host = listed ?? { name, groups: [], inventories: [], ...(await historyOf(deps, projectId, name)) };
  return {
    ...host, errors: page.errors,
    tasks: runs.map((r) => ({ task_id: r.task_id, template_id: r.template_id, template_name: r.template_name, result: resultOf(r), time: r.created })),
  };
}

async function historyOf(deps: Deps, projectId: number, name: string): Promise<Pick<ProjectHost, 'results' | 'last_seen' | 'facts'>> {
  const [history, facts] = await Promise.all([hostHistories(deps.db, projectId, [name]), hostFactsOf(deps.db, projectId, [name])]);
  return { results: history.get(name)?.results ?? [], last_seen: history.get(name)?.lastSeen ?? null, facts: facts.get(name) ?? null };
}
