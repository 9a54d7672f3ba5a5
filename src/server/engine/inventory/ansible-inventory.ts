import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Deps } from '../../deps.ts';
import type { InventoryRow, RepositoryRow } from '../run/task-details.ts';
import { openKeyById } from '../run/task-details.ts';
import { SecretFiles } from '../run/secret-files.ts';
import { prepareRepository } from '../git/prepare-repository.ts';
import { gitProcessEnv } from '../git/git-env.ts';
import { startProcess } from '../process/run-process.ts';
import { repoPathProblem } from '../../domain/shared/repo-path.ts';
import { SOURCE_TYPES } from '../../domain/inventories/inventory.ts';

/** What Ansible made of an inventory: its groups (with direct hosts and child groups) and its hosts (with every group they are in). */
export interface InventoryListing {
  groups: { name: string; hosts: string[]; children: string[] }[];
  hosts: { name: string; groups: string[] }[];
}

/** A vault password Ansible may need to read the inventory's vaulted variables. */
export interface VaultPassword { name: string; password: string }

/** An inventory Ansible could not read, with what Ansible printed. */
export class InventoryReadError extends Error {}

const LIST_TIMEOUT_MS = 60_000;
const OUTPUT_MAX_BYTES = 64 * 1024 * 1024;
const MESSAGE_MAX_CHARS = 8000;
const CACHE_ENTRIES = 200;
/**
 * Only the parsers that read data: a `script` file or an `auto` plugin would run code from the
 * repository as the server itself (a task runs it as its task user instead).
 */
export const PARSERS = 'host_list,ini,yaml,toml';
const VAULT_LABEL = /^[\w.-]{1,100}$/;

/** Listings by inventory version (its content, or its file's commit): a changed inventory is a new key. */
const cache = new Map<string, Promise<InventoryListing>>();
/** Checkouts of one inventory's repository are made one after the other. */
const checkouts = new Map<number, Promise<unknown>>();

/**
 * The hosts and groups of an Ansible inventory, as `ansible-inventory --list` reads it: a
 * static (INI or YAML) inventory from its text, a file inventory from its repository's branch
 * head, a url or script inventory as its last successful sync read it. Cached per version; a failure is not cached and throws InventoryReadError with
 * Ansible's own message.
 * @example const { groups, hosts } = await readInventoryHosts(deps, inventory);
 */
export async function readInventoryHosts(deps: Deps, inventory: InventoryRow): Promise<InventoryListing> {
  if (inventory.type === 'static' || inventory.type === 'static-yaml') {
    const file = inventory.type === 'static' ? 'inventory' : 'inventory.yml';
    const vaults = await inventoryVaults(deps, inventory);
    return cached(versionKey(inventory.type, inventory.inventory, JSON.stringify(vaults)), (dir) => {
      writeFileSync(join(dir, file), inventory.inventory.endsWith('\n') ? inventory.inventory : `${inventory.inventory}\n`, { mode: 0o600 });
      return listInventory(join(dir, file), dir, 'inventory', vaults);
    });
  }
  if (inventory.type === 'file') return readFileInventory(deps, inventory);
  if (SOURCE_TYPES.includes(inventory.type)) return lastSyncedListing(deps, inventory);
  throw new InventoryReadError(`a ${inventory.type} inventory is not an Ansible inventory`);
}

/** The listing of the inventory's last successful sync; InventoryReadError when none has succeeded. */
export async function lastSyncedListing(deps: Deps, inventory: Pick<InventoryRow, 'id'>): Promise<InventoryListing> {
  const row = await deps.db.selectFrom('inventory_sync').select('listing').where('inventory_id', '=', inventory.id)
    .where('listing', 'is not', null).orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!row?.listing) throw new InventoryReadError('the inventory has not been synced yet');
  return JSON.parse(row.listing) as InventoryListing;
}

/**
 * The password vaults of the templates that run with the inventory (their own, or one they let a
 * task choose): their tasks hand these to Ansible, so vaulted host_vars and group_vars read the
 * same here. Script vaults are left out: they would run repository code as the server.
 */
export async function inventoryVaults(deps: Deps, inventory: InventoryRow): Promise<VaultPassword[]> {
  const rows = await deps.db.selectFrom('template_vault').innerJoin('template', 'template.id', 'template_vault.template_id')
    .select(['template_vault.name', 'template_vault.vault_key_id'])
    .where('template.project_id', '=', inventory.project_id).where('template_vault.type', '!=', 'script')
    .where((eb) => eb.or([
      eb('template.inventory_id', '=', inventory.id),
      eb('template.id', 'in', eb.selectFrom('template_allowed_inventory').select('template_id').where('inventory_id', '=', inventory.id)),
    ]))
    .orderBy('template_vault.id').execute();
  const vaults = new Map<string, VaultPassword>();
  for (const row of rows) {
    const key = await openKeyById(deps.db, deps.secrets, row.vault_key_id);
    const vault = { name: row.name || 'default', password: key?.password || key?.text || '' };
    // a label Ansible would split (`@`) or read otherwise is not passed on
    if (vault.password && VAULT_LABEL.test(vault.name)) vaults.set(JSON.stringify(vault), vault);
  }
  return [...vaults.values()];
}

/** The path of a file or script inventory in its repository, and that repository; InventoryReadError when either is wrong. */
export async function inventoryInRepository(deps: Deps, inventory: InventoryRow): Promise<{ path: string; repository: RepositoryRow }> {
  const path = inventory.inventory.trim();
  const problem = repoPathProblem(path);
  if (problem) throw new InventoryReadError(`inventory ${inventory.type} ${JSON.stringify(path)} ${problem}`);
  if (!inventory.repository_id) throw new InventoryReadError(`a ${inventory.type} inventory needs its repository`);
  const repository = await deps.db.selectFrom('repository').selectAll().where('id', '=', inventory.repository_id).executeTakeFirst();
  if (!repository) throw new InventoryReadError('the inventory\'s repository no longer exists');
  return { path, repository };
}

async function readFileInventory(deps: Deps, inventory: InventoryRow): Promise<InventoryListing> {
  const { path, repository } = await inventoryInRepository(deps, inventory);
  const checkout = await oneAtATime(inventory.id, () => checkOut(deps, inventory, repository));
  const source = insideCheckout(checkout.dir, path);
  const vaults = await inventoryVaults(deps, inventory);
  return cached(versionKey('file', path, repository.git_url, checkout.commitHash ?? '', JSON.stringify(vaults)), (dir) => listInventory(source, dir, path, vaults));
}

/** The file's path in the checkout, symlinks followed: it must stay inside it. */
export function insideCheckout(root: string, path: string): string {
  const file = join(root, path);
  if (!existsSync(file)) throw new InventoryReadError(`inventory file ${JSON.stringify(path)} is not in the repository`);
  const real = realpathSync(file);
  const top = realpathSync(root);
  if (real !== top && !real.startsWith(`${top}${sep}`)) throw new InventoryReadError(`inventory file ${JSON.stringify(path)} resolves outside the repository`);
  return real;
}

/** The repository at its branch head, in `inventory_hosts_<id>` under tmp_path (fetched, not cloned, when it is there). */
export async function checkOut(deps: Deps, inventory: InventoryRow, repository: RepositoryRow) {
  const key = await openKeyById(deps.db, deps.secrets, repository.ssh_key_id, deps.config.secret_sources);
  mkdirSync(deps.config.tmp_path, { recursive: true, mode: 0o700 });
  const files = new SecretFiles(mkdtempSync(join(deps.config.tmp_path, '.inventory-keys-')));
  const log: string[] = [];
  try {
    return await prepareRepository({
      repository, key, dirName: `inventory_hosts_${inventory.id}`, tmpPath: deps.config.tmp_path, branch: repository.git_branch, commitHash: null,
      baseEnv: gitProcessEnv(deps.config), files, log: (line) => log.push(line),
      exec: async (command, args, cwd, env) => {
        const result = await run(command, args, cwd, env);
        log.push(...result.lines);
        if (result.code !== 0) throw new Error(`${command} exited with code ${result.code}`);
      },
    });
  } catch (err) {
    throw new InventoryReadError(`cannot check out ${repository.git_url}: ${[(err as Error).message, ...log.slice(-5)].join('\n')}`);
  } finally {
    files.removeAll();
  }
}

export function oneAtATime<T>(id: number, work: () => Promise<T>): Promise<T> {
  const before = checkouts.get(id) ?? Promise.resolve();
  const next = before.catch(() => undefined).then(work);
  checkouts.set(id, next);
  void next.finally(() => { if (checkouts.get(id) === next) checkouts.delete(id); }).catch(() => undefined);
  return next;
}

function versionKey(...parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The listing of `key`, made once in a scratch directory by `make`; a failed listing is forgotten. */
function cached(key: string, make: (dir: string) => Promise<InventoryListing>): Promise<InventoryListing> {
  const known = cache.get(key);
  if (known) {
    cache.delete(key);
    cache.set(key, known);
    return known;
  }
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'signalbox-inventory-'));
  const listing = make(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
  cache.set(key, listing);
  listing.catch(() => cache.delete(key));
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return listing;
}

/**
 * Runs `ansible-inventory --list` on `source` with the server's ansible.cfg set aside (an empty
 * one in `dir`, the working directory): only the inventory decides what it lists. Vault
 * passwords go in files of `dir` (removed with it), never on the command line.
 */
export async function listInventory(source: string, dir: string, label: string, vaults: VaultPassword[], parsers = PARSERS): Promise<InventoryListing> {
  const output = join(dir, 'listing.json');
  writeFileSync(join(dir, 'ansible.cfg'), '', { mode: 0o600 });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: dir, ANSIBLE_CONFIG: join(dir, 'ansible.cfg'), ANSIBLE_LOCAL_TEMP: dir,
    ANSIBLE_INVENTORY_ENABLED: parsers, ANSIBLE_INVENTORY_UNPARSED_FAILED: 'true', ANSIBLE_NOCOLOR: '1', ANSIBLE_FORCE_COLOR: '0',
  };
  const vaultIds = vaults.map((vault, i) => {
    const file = join(dir, `vault-${i}`);
    writeFileSync(file, vault.password, { mode: 0o600 });
    return `--vault-id=${vault.name}@${file}`;
  });
  const result = await run('ansible-inventory', [`--inventory=${source}`, ...vaultIds, '--list', `--output=${output}`], dir, env);
  // the server's own folders are no one's business: the message names the inventory as its owner knows it
  if (result.code !== 0) throw new InventoryReadError(ansibleMessage(result.lines).split(source).join(label) || `ansible-inventory exited with code ${result.code}`);
  if (statSync(output).size > OUTPUT_MAX_BYTES) throw new InventoryReadError('the inventory is too large to list');
  return listingOf(JSON.parse(readFileSync(output, 'utf8')) as Record<string, unknown>);
}

/** What Ansible said, without its traceback noise, bounded. */
function ansibleMessage(lines: string[]): string {
  const text = lines.join('\n').trim();
  return text.length > MESSAGE_MAX_CHARS ? `${text.slice(0, MESSAGE_MAX_CHARS)}…` : text;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const lines: string[] = [];
  const proc = startProcess({ command, args, cwd, env }, { write: (line) => { if (lines.length < 2000) lines.push(line); return true; }, drained: () => Promise.resolve() });
  const timer = setTimeout(() => proc.kill(false), LIST_TIMEOUT_MS);
  return proc.done.then((result) => ({ code: result.code, lines }), (err: Error) => ({ code: -1, lines: [err.message] })).finally(() => clearTimeout(timer));
}

/** Groups and hosts of `ansible-inventory --list`'s JSON; a host's groups are all it belongs to, through child groups, but `all`. */
export function listingOf(json: Record<string, unknown>): InventoryListing {
  const groups = new Map<string, { hosts: string[]; children: string[] }>();
  for (const [name, value] of Object.entries(json)) {
    if (name === '_meta' || !value || typeof value !== 'object') continue;
    const group = value as { hosts?: unknown; children?: unknown };
    groups.set(name, { hosts: strings(group.hosts), children: strings(group.children) });
  }
  const parents = new Map<string, string[]>();
  for (const [name, group] of groups) for (const child of group.children) parents.set(child, [...(parents.get(child) ?? []), name]);
  const hostGroups = new Map<string, Set<string>>();
  const meta = (json._meta as { hostvars?: Record<string, unknown> } | undefined)?.hostvars ?? {};
  for (const host of Object.keys(meta)) hostGroups.set(host, new Set());
  for (const [name, group] of groups) {
    for (const host of group.hosts) {
      const into = hostGroups.get(host) ?? new Set<string>();
      hostGroups.set(host, into);
      for (const ancestor of withAncestors(name, parents)) if (ancestor !== 'all') into.add(ancestor);
    }
  }
  return {
    groups: [...groups].map(([name, g]) => ({ name, hosts: g.hosts, children: g.children })).sort((a, b) => a.name.localeCompare(b.name)),
    hosts: [...hostGroups].map(([name, set]) => ({ name, groups: [...set].sort() })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

function withAncestors(group: string, parents: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const queue = [group];
  while (queue.length) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(parents.get(next) ?? []));
  }
  return seen;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
