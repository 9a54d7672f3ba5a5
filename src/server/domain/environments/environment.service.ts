import type { Db, Tx } from '../../db/database.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import { sealSecret } from '../../crypto/sealed-secret.ts';
import { badRequest } from '../../http/errors.ts';
import type { ListOrder } from '../../http/list-order.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { loadProjectRow, type Actor } from '../project-resource.ts';
import { assertNotInUse } from '../refs/resource-refs.ts';
import type { AccessKeyRow } from '../keys/access-key.ts';
import { keySourceOf, type KeySourceColumns } from '../keys/access-key.service.ts';
import type { SecretSourcesPolicy } from '../keys/key-source.ts';
import {
  ENVIRONMENT_KEY_OWNER, secretNameParts, type EnvironmentInput, type EnvironmentRow, type EnvironmentSecretInput, type SecretType,
} from './environment.ts';

/** A variable group with its secret key rows (values still sealed). */
export interface EnvironmentWithSecrets { row: EnvironmentRow; secrets: AccessKeyRow[] }

/** Variable groups of a project with their secret rows. */
export async function listEnvironments(db: Db, projectId: number, order: ListOrder<'name'>): Promise<EnvironmentWithSecrets[]> {
  const rows = await db.selectFrom('environment').selectAll().where('project_id', '=', projectId)
    .orderBy(order.column, order.direction).orderBy('id').execute();
  const keys = await db.selectFrom('access_key').selectAll().where('project_id', '=', projectId)
    .where('owner', '=', ENVIRONMENT_KEY_OWNER).orderBy('id').execute();
  return rows.map((row) => ({ row, secrets: keys.filter((k) => k.environment_id === row.id) }));
}

/** One variable group of the project with its secret rows, or 404. */
export async function findEnvironment(db: Db | Tx, projectId: number, id: number): Promise<EnvironmentWithSecrets> {
  const row = await loadProjectRow(db, 'environment', projectId, id);
  return { row, secrets: await secretKeysOf(db, id) };
}

function secretKeysOf(db: Db | Tx, environmentId: number): Promise<AccessKeyRow[]> {
  return db.selectFrom('access_key').selectAll().where('environment_id', '=', environmentId)
    .where('owner', '=', ENVIRONMENT_KEY_OWNER).orderBy('id').execute();
}

/** Parses JSON text that must hold an object; null when it does not. */
function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function validEnvironmentValues(box: SecretBox, input: EnvironmentInput) {
  const json = input.json === undefined || input.json.trim() === '' ? '{}' : input.json;
  if (!parseObject(json)) throw badRequest('Extra variables must be valid JSON');
  const env = input.env == null || input.env.trim() === '' ? null : input.env;
  if (env !== null && !parseObject(env)) throw badRequest('Environment variables must be a valid JSON object');
  return { name: input.name, json, env, password: sealSecret(box, input.password) };
}

interface SecretChange {
  op: 'create' | 'update' | 'delete'; id?: number; type?: SecretType; name?: string; secret?: string;
  /** undefined: the storage reference stays as it is */
  source?: KeySourceColumns;
}

/**
 * Checks every secret operation against the group's current secrets before anything is written:
 * ids must be secrets of this group, names non-empty and unique per type in the result.
 */
function planSecretChanges(items: EnvironmentSecretInput[], existing: AccessKeyRow[], creating: boolean): SecretChange[] {
  const final = new Map<number | string, { type: SecretType; name: string }>();
  for (const key of existing) final.set(key.id, secretNameParts(key.name));
  const changes = items.map((item, i): SecretChange => {
    const at = `secrets.${i}`;
    const op = item.operation ?? (item.id == null ? 'create' : 'update');
    if (op === 'create') {
      if (!item.name) throw badRequest(`${at}.name: required`);
      if (/\s/.test(item.name)) throw badRequest(`${at}.name: must not contain spaces`);
      if (!item.type) throw badRequest(`${at}.type: required; use var or env`);
      final.set(`new${i}`, { type: item.type, name: item.name });
      return { op, type: item.type, name: item.name, secret: item.secret ?? '' };
    }
    if (creating || item.id == null || !existing.some((k) => k.id === item.id)) throw badRequest(`${at}.id: no such secret in this variable group`);
    if (op === 'delete') {
      final.delete(item.id);
      return { op, id: item.id };
    }
    const current = final.get(item.id)!;
    const next = { type: item.type ?? current.type, name: item.name || current.name };
    if (/\s/.test(next.name)) throw badRequest(`${at}.name: must not contain spaces`);
    final.set(item.id, next);
    return { op, id: item.id, ...next, secret: item.secret };
  });
  const seen = new Set<string>();
  for (const { type, name } of final.values()) {
    if (seen.has(`${type}.${name}`)) throw badRequest(`secrets: ${type} secret ${name} is given twice`);
    seen.add(`${type}.${name}`);
  }
  return changes;
}

/** Checks each secret's source: a storage of the project (`path#field`), or an allowed server variable or file. */
async function attachSources(tx: Tx, sources: SecretSourcesPolicy, projectId: number, items: EnvironmentSecretInput[], changes: SecretChange[]): Promise<void> {
  for (const [i, change] of changes.entries()) {
    const item = items[i]!;
    if (change.op === 'delete' || (change.op === 'update' && item.source_storage_id === undefined && item.source_storage_type === undefined)) continue;
    change.source = await keySourceOf(tx, sources, projectId, item, `secrets.${i}.`);
  }
}

async function applySecretChanges(tx: Tx, box: SecretBox, projectId: number, environmentId: number, changes: SecretChange[]): Promise<void> {
  for (const change of changes) {
    const fromStorage = change.source?.source_storage_id != null || change.source?.source_storage_type != null;
    if (change.op === 'create') {
      await tx.insertInto('access_key').values({
        project_id: projectId, name: `${change.type}.${change.name}`, type: 'string', secret: fromStorage ? null : sealSecret(box, change.secret),
        owner: ENVIRONMENT_KEY_OWNER, environment_id: environmentId, created: now(), ...change.source,
      }).execute();
    } else if (change.op === 'delete') {
      await tx.deleteFrom('access_key').where('id', '=', change.id!).execute();
    } else {
      // An empty value keeps the stored one: the console sends "" for secrets it never saw.
      const set: { name: string; secret?: string | null } & Partial<KeySourceColumns> = { name: `${change.type}.${change.name}`, ...change.source };
      if (fromStorage) set.secret = null;
      else if (change.secret) set.secret = sealSecret(box, change.secret);
      await tx.updateTable('access_key').set(set).where('id', '=', change.id!).execute();
    }
  }
}

/** Validates and stores a new variable group with its secrets. */
export async function createEnvironment(tx: Tx, box: SecretBox, actor: Actor, input: EnvironmentInput, sources: SecretSourcesPolicy): Promise<EnvironmentWithSecrets> {
  const values = validEnvironmentValues(box, input);
  const changes = planSecretChanges(input.secrets ?? [], [], true);
  await attachSources(tx, sources, actor.projectId, input.secrets ?? [], changes);
  const row = await tx.insertInto('environment').values({ project_id: actor.projectId, ...values }).returningAll().executeTakeFirstOrThrow();
  await applySecretChanges(tx, box, actor.projectId, row.id, changes);
  await recordEnvironmentEvent(tx, actor, row, 'created');
  return { row, secrets: await secretKeysOf(tx, row.id) };
}

/** Updates a variable group and applies its secret operations; a missing or empty password keeps the old one. */
export async function updateEnvironment(tx: Tx, box: SecretBox, actor: Actor, id: number, input: EnvironmentInput, sources: SecretSourcesPolicy): Promise<void> {
  const { row, secrets } = await findEnvironment(tx, actor.projectId, id);
  const values = validEnvironmentValues(box, input);
  const changes = planSecretChanges(input.secrets ?? [], secrets, false);
  await attachSources(tx, sources, actor.projectId, input.secrets ?? [], changes);
  await tx.updateTable('environment').set({ ...values, password: input.password === undefined || input.password === '' ? row.password : values.password })
    .where('id', '=', id).execute();
  await applySecretChanges(tx, box, actor.projectId, id, changes);
  await recordEnvironmentEvent(tx, actor, { id, name: values.name }, 'updated');
}

/** Deletes a variable group no template uses, with its secrets. */
export async function deleteEnvironment(tx: Tx, actor: Actor, id: number): Promise<void> {
  const existing = await loadProjectRow(tx, 'environment', actor.projectId, id);
  await assertNotInUse(tx, actor.projectId, 'environment', id);
  await tx.deleteFrom('access_key').where('environment_id', '=', id).where('owner', '=', ENVIRONMENT_KEY_OWNER).execute();
  await tx.deleteFrom('environment').where('id', '=', id).execute();
  await recordEnvironmentEvent(tx, actor, existing, 'deleted');
}

function recordEnvironmentEvent(tx: Tx, actor: Actor, env: Pick<EnvironmentRow, 'id' | 'name'>, verb: string): Promise<void> {
  return recordEvent(tx, {
    projectId: actor.projectId, userId: actor.userId, objectType: 'environment', objectId: env.id, auditName: env.name,
    description: `Environment ${env.name} ${verb}`,
  });
}
