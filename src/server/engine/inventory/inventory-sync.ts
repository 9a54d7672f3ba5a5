import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Deps } from '../../deps.ts';
import type { InventoryRow } from '../run/task-details.ts';
import { openKeyById, type KeySecret } from '../run/task-details.ts';
import { sendOutgoing } from '../../lib/outgoing-http.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../../domain/events/event.repository.ts';
import {
  checkOut, insideCheckout, inventoryInRepository, InventoryReadError, inventoryVaults, lastSyncedListing, listInventory, oneAtATime, PARSERS, type InventoryListing,
} from './ansible-inventory.ts';

const URL_TIMEOUT_MS = 30_000;
const URL_ANSWER_MAX = 16 * 1024 * 1024;
const SYNCS_LISTED = 20;

/** Who asked for a sync: a person by hand, a task being launched, or the inventory's sync schedule. */
export interface SyncCause { userId: number | null; taskId?: number | null; scheduled?: boolean }

/** One recorded sync as the API shows it. */
export interface InventorySync {
  id: number;
  inventory_id: number;
  created: string;
  user_id: number | null;
  task_id: number | null;
  /** its inventory's sync schedule started it */
  scheduled: boolean;
  hosts_added: string[];
  hosts_removed: string[];
  /** hosts the sync listed; null when it failed */
  host_count: number | null;
  error: string | null;
}

/** What a successful sync read: the listing, and for a url inventory the text a task runs with. */
export interface SyncResult { sync: InventorySync; listing: InventoryListing | null; content: string | null }

/**
 * Reads a url or script inventory's source with `ansible-inventory --list` and records the
 * sync (hosts added and removed since the last successful one, or Ansible's error). A url is
 * fetched through the outgoing-HTTP client with the inventory's source key; a script runs
 * under Ansible's dynamic inventory contract from the repository's branch head.
 * @example const { sync } = await syncInventory(deps, inventory, { userId: 1 });
 */
export async function syncInventory(deps: Deps, inventory: InventoryRow, cause: SyncCause): Promise<SyncResult> {
  let listing: InventoryListing | null = null;
  let content: string | null = null;
  let error: string | null = null;
  try {
    if (inventory.type === 'url') ({ listing, content } = await readUrlInventory(deps, inventory));
    else if (inventory.type === 'script') listing = await readScriptInventory(deps, inventory);
    else throw new InventoryReadError(`a ${inventory.type} inventory has no source to sync`);
  } catch (err) {
    if (!(err instanceof InventoryReadError)) throw err;
    error = err.message;
  }
  const before = await lastSyncedListing(deps, inventory).catch(() => null);
  const had = new Set(before?.hosts.map((h) => h.name) ?? []);
  const has = new Set(listing?.hosts.map((h) => h.name) ?? []);
  const sync = await deps.db.transaction().execute(async (tx) => {
    const row = await tx.insertInto('inventory_sync').values({
      inventory_id: inventory.id, created: now(), user_id: cause.userId, task_id: cause.taskId ?? null, scheduled: cause.scheduled ? 1 : 0,
      hosts_added: JSON.stringify(listing ? [...has].filter((h) => !had.has(h)) : []),
      hosts_removed: JSON.stringify(listing ? [...had].filter((h) => !has.has(h)) : []),
      listing: listing ? JSON.stringify(listing) : null, error,
    }).returningAll().executeTakeFirstOrThrow();
    const done = syncOf(row);
    await recordEvent(tx, {
      projectId: inventory.project_id, userId: cause.userId, objectType: 'inventory', objectId: inventory.id, auditName: inventory.name,
      description: error === null
        ? `Inventory ${inventory.name} synced${cause.scheduled ? ' by its schedule' : ''}: ${done.host_count} hosts, ${done.hosts_added.length} added, ${done.hosts_removed.length} removed`
        : `Inventory ${inventory.name} sync${cause.scheduled ? ' by its schedule' : ''} failed`,
    });
    return done;
  });
  return { sync, listing, content };
}

/**
 * The scheduler's sync (scheduler/inventory-sync-schedule.ts): by nobody, marked as the schedule's.
 * @example startScheduler(deps, { syncInventory: scheduledSync(deps) })
 */
export function scheduledSync(deps: Deps): (inventory: InventoryRow) => Promise<void> {
  return async (inventory) => {
    await syncInventory(deps, inventory, { userId: null, scheduled: true });
  };
}

/** The newest syncs of an inventory, newest first. */
export async function listInventorySyncs(deps: Deps, inventoryId: number): Promise<InventorySync[]> {
  const rows = await deps.db.selectFrom('inventory_sync').selectAll().where('inventory_id', '=', inventoryId)
    .orderBy('id', 'desc').limit(SYNCS_LISTED).execute();
  return rows.map(syncOf);
}

function syncOf(row: { id: number; inventory_id: number; created: string; user_id: number | null; task_id: number | null; scheduled: number; hosts_added: string; hosts_removed: string; listing: string | null; error: string | null }): InventorySync {
  return {
    id: row.id, inventory_id: row.inventory_id, created: row.created, user_id: row.user_id, task_id: row.task_id, scheduled: row.scheduled === 1,
    hosts_added: JSON.parse(row.hosts_added) as string[], hosts_removed: JSON.parse(row.hosts_removed) as string[],
    host_count: row.listing ? (JSON.parse(row.listing) as InventoryListing).hosts.length : null, error: row.error,
  };
}

/** `Authorization` for a url inventory's key: a login makes Basic, a lone password (or text) a Bearer token. */
function authorization(key: KeySecret | null): Record<string, string> {
  if (!key || key.type === 'none') return {};
  if (key.login) return { authorization: `Basic ${Buffer.from(`${key.login}:${key.password}`).toString('base64')}` };
  const token = key.password || key.text;
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function readUrlInventory(deps: Deps, inventory: InventoryRow): Promise<{ listing: InventoryListing; content: string }> {
  const key = await openKeyById(deps.db, deps.secrets, inventory.source_key_id, deps.config.secret_sources);
  let answer;
  try {
    answer = await sendOutgoing(inventory.inventory.trim(), {
      headers: { accept: 'application/json, application/yaml, text/plain', ...authorization(key) }, timeoutMs: URL_TIMEOUT_MS, answerLimit: URL_ANSWER_MAX,
    });
  } catch (err) {
    throw new InventoryReadError(`cannot read the inventory URL: ${(err as Error).message}`);
  }
  if (answer.status < 200 || answer.status > 299) throw new InventoryReadError(`the inventory URL answered HTTP ${answer.status}`);
  const content = answer.body.toString('utf8');
  const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'signalbox-inventory-'));
  try {
    const file = writeInventoryText(dir, content);
    return { listing: await listInventory(file.path, dir, 'the inventory URL', await inventoryVaults(deps, inventory), file.parsers), content };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes a fetched inventory where Ansible reads it by its form: the JSON a dynamic inventory
 * prints (`--list`: groups with host lists, `_meta`) behind a script that only prints it; any
 * other JSON or YAML as `inventory.yml`; the rest as INI.
 * @example writeInventoryText(dir, '[web]\nweb1\n') // { path: `${dir}/inventory`, parsers: 'host_list,ini,yaml,toml' }
 */
export function writeInventoryText(dir: string, content: string, write: FileWriter = writeFile): { path: string; parsers: string } {
  const text = content.endsWith('\n') ? content : `${content}\n`;
  const json = parseJsonObject(text);
  if (json && isScriptListing(json)) {
    write(join(dir, 'inventory-listing.json'), text, 0o600);
    return { path: write(join(dir, 'inventory-listing.sh'), '#!/bin/sh\nexec cat "$(dirname "$0")/inventory-listing.json"\n', 0o700), parsers: 'script' };
  }
  const yaml = json !== null || /^(---|[\w.-]+:\s*(#.*)?$)/.test(firstLine(text));
  return { path: write(join(dir, yaml ? 'inventory-source.yml' : 'inventory-source'), text, 0o600), parsers: PARSERS };
}

type FileWriter = (path: string, content: string, mode: number) => string;

function writeFile(path: string, content: string, mode: number): string {
  writeFileSync(path, content, { mode });
  chmodSync(path, mode);
  return path;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

function isScriptListing(json: Record<string, unknown>): boolean {
  if (Object.hasOwn(json, '_meta')) return true;
  return Object.values(json).some((group) => Array.isArray(group) || (group && typeof group === 'object' && Array.isArray((group as { hosts?: unknown }).hosts)));
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() && !line.trim().startsWith('#'))?.trim() ?? '';
}

/**
 * Tasks that run as other users keep repository code away from the server's own identity; a
 * script inventory is then read only by the tasks themselves (ansible-playbook runs it as the task user).
 */
export function scriptsRunAsServer(deps: Deps): boolean {
  const p = deps.config.process;
  return !p.user && p.uid === null && p.gid === null && !p.chroot && !p.uid_pool;
}

async function readScriptInventory(deps: Deps, inventory: InventoryRow): Promise<InventoryListing> {
  if (!scriptsRunAsServer(deps)) throw new InventoryReadError('a script inventory is synced only by its tasks here: tasks run as another user than the server');
  const { path, repository } = await inventoryInRepository(deps, inventory);
  const vaults = await inventoryVaults(deps, inventory);
  return oneAtATime(inventory.id, async () => {
    const checkout = await checkOut(deps, inventory, repository);
    const source = insideCheckout(checkout.dir, path);
    const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'signalbox-inventory-'));
    try {
      return await listInventory(source, dir, path, vaults, 'script');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
