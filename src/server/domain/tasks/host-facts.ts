import type { Db } from '../../db/database.ts';
import { now } from '../../lib/time.ts';

/** What the Hosts view keeps of a host's gathered facts, with the run that gathered them. */
export interface HostFacts {
  distribution: string | null;
  distribution_version: string | null;
  ipv4: string | null;
  hostname: string | null;
  task_id: number;
  /** when that run's facts were stored */
  gathered: string;
}

const FACT_NAMES = ['distribution', 'distribution_version', 'ipv4', 'hostname'] as const;
type FactName = (typeof FACT_NAMES)[number];
type GatheredFacts = Partial<Record<FactName, string>>;

/** a fact longer than this is not a name or an address: dropped */
const VALUE_MAX = 255;
/** at most this many hosts are read from one run's file (the Hosts view's bench size, doubled) */
const HOSTS_MAX = 20_000;
/** rows per insert, under SQLite's variable limit */
const CHUNK = 200;

/**
 * The facts file the engine's callback wrote (`{host: {distribution, ...}}`), checked: only
 * string facts it names, a host name and each value at most 255 characters; anything else is left
 * out. Empty (no host gathered facts) for an empty or broken file.
 * @example readFactsFile('{"web1":{"distribution":"Debian"}}').get('web1') // { distribution: 'Debian' }
 */
export function readFactsFile(text: string): Map<string, GatheredFacts> {
  const hosts = new Map<string, GatheredFacts>();
  let parsed: unknown;
  try {
    parsed = text.trim() ? JSON.parse(text) : {};
  } catch {
    return hosts;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return hosts;
  for (const [host, facts] of Object.entries(parsed as Record<string, unknown>)) {
    if (hosts.size >= HOSTS_MAX) break;
    if (!host || host.length > VALUE_MAX || !facts || typeof facts !== 'object') continue;
    const kept: GatheredFacts = {};
    for (const name of FACT_NAMES) {
      const value = Object.hasOwn(facts, name) ? (facts as Record<string, unknown>)[name] : undefined;
      if (typeof value === 'string' && value && value.length <= VALUE_MAX) kept[name] = value;
    }
    if (Object.keys(kept).length) hosts.set(host, kept);
  }
  return hosts;
}

/**
 * Stores one run's gathered facts: each host's row takes the facts this run reported (the ones
 * it did not, from a narrower gathering, stay as they were), the task and the time. Hosts the run
 * did not gather keep their rows untouched.
 * @example await saveHostFacts(db, { id: 7, project_id: 1 }, readFactsFile(text))
 */
export async function saveHostFacts(db: Db, task: { id: number; project_id: number }, hosts: Map<string, GatheredFacts>): Promise<void> {
  const gathered = now();
  const rows = [...hosts].map(([host, facts]) => ({
    project_id: task.project_id, host, task_id: task.id, gathered,
    distribution: facts.distribution ?? null, distribution_version: facts.distribution_version ?? null,
    ipv4: facts.ipv4 ?? null, hostname: facts.hostname ?? null,
  }));
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await tx.insertInto('host_facts').values(rows.slice(i, i + CHUNK)).onConflict((oc) => oc.columns(['project_id', 'host']).doUpdateSet((eb) => ({
        task_id: eb.ref('excluded.task_id'), gathered: eb.ref('excluded.gathered'),
        distribution: eb.fn.coalesce('excluded.distribution', 'host_facts.distribution'),
        distribution_version: eb.fn.coalesce('excluded.distribution_version', 'host_facts.distribution_version'),
        ipv4: eb.fn.coalesce('excluded.ipv4', 'host_facts.ipv4'),
        hostname: eb.fn.coalesce('excluded.hostname', 'host_facts.hostname'),
      }))).execute();
    }
  });
}

/**
 * The stored facts of the project's hosts, by host name; `only` some hosts (a page of them) when given.
 * @example (await hostFactsOf(db, 1, ['web1'])).get('web1')?.distribution // 'Debian'
 */
export async function hostFactsOf(db: Db, projectId: number, only?: string[]): Promise<Map<string, HostFacts>> {
  let query = db.selectFrom('host_facts').select(['host', 'task_id', 'gathered', ...FACT_NAMES]).where('project_id', '=', projectId);
  if (only) query = query.where('host', 'in', only.length ? only : ['']);
  const facts = new Map<string, HostFacts>();
  for (const { host, ...row } of await query.execute()) facts.set(host, row);
  return facts;
}
