import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/server/db/database.ts';
import { hashSecretToken, newApiToken } from '../../src/server/access/tokens.ts';
import { now } from '../../src/server/lib/time.ts';
import { ACTIVE_STATUSES } from '../../src/server/domain/tasks/task-status.ts';
import type { Auth } from './harness.ts';

/**
 * Rows of other parts (users, keys, repositories, inventories, variable groups) inserted
 * straight into the database, so template/schedule/integration tests do not depend on
 * those parts' routes.
 */
export async function insertUserWithToken(db: Db, options: { admin?: boolean } = {}): Promise<{ id: number; auth: Auth }> {
  const name = `u${randomBytes(4).toString('hex')}`;
  const user = await db.insertInto('user').values({
    created: now(), username: name, name, email: `${name}@example.test`, password: 'x', admin: options.admin ? 1 : 0, external: 0, alert: 0,
  }).returningAll().executeTakeFirstOrThrow();
  const token = newApiToken();
  await db.insertInto('api_token').values({ hash: hashSecretToken(token), prefix: token.slice(0, 8), user_id: user.id, name: '', created: now(), expires_at: null, expired: 0 }).execute();
  return { id: user.id, auth: { authorization: `Bearer ${token}` } };
}

/** A new user with `role` in the project; returns its bearer header. */
export async function insertMember(db: Db, projectId: number, role: string): Promise<Auth> {
  const user = await insertUserWithToken(db);
  await db.insertInto('project_user').values({ project_id: projectId, user_id: user.id, role, created: now() }).execute();
  return user.auth;
}

export function insertKey(db: Db, projectId: number, name: string, type = 'none') {
  return db.insertInto('access_key').values({ project_id: projectId, name, type, secret: null, owner: '', environment_id: null, created: now() })
    .returningAll().executeTakeFirstOrThrow();
}

export function insertRepository(db: Db, projectId: number, keyId: number, name = 'Repo', gitUrl = '/tmp') {
  return db.insertInto('repository').values({ project_id: projectId, name, git_url: gitUrl, git_branch: 'main', ssh_key_id: keyId })
    .returningAll().executeTakeFirstOrThrow();
}

export function insertInventory(db: Db, projectId: number, options: { name: string; type?: string; inventory?: string; keyId?: number | null; holderId?: number | null }) {
  return db.insertInto('inventory').values({
    project_id: projectId, name: options.name, type: options.type ?? 'static', inventory: options.inventory ?? 'localhost',
    ssh_key_id: options.keyId ?? null, become_key_id: null, repository_id: null, holder_id: options.holderId ?? null,
  }).returningAll().executeTakeFirstOrThrow();
}

export function insertEnvironment(db: Db, projectId: number, name: string) {
  return db.insertInto('environment').values({ project_id: projectId, name, json: '{}', env: null, password: null })
    .returningAll().executeTakeFirstOrThrow();
}

/**
 * The engine that "runs" fixture tasks inserted as active: alive for good and on another host, so
 * the engine of a test server never takes them for tasks a crashed server left behind (its
 * periodic recovery would mark them as error, sooner or later depending on the machine's load).
 */
const FIXTURE_ENGINE = { id: 'fixture-host:0:fixture', host: 'fixture-host', pid: 0 };

async function fixtureEngineId(db: Db): Promise<string> {
  const time = now();
  await db.insertInto('engine_worker').values({ ...FIXTURE_ENGINE, started: time, heartbeat_at: '9999-12-31T00:00:00.000Z' })
    .onConflict((oc) => oc.column('id').doNothing()).execute();
  return FIXTURE_ENGINE.id;
}

/** A task row of a template, created at `created`; an active one is held by the fixture engine. */
export async function insertTask(db: Db, row: { projectId: number; templateId: number; status: string; created?: string; userId?: number | null }) {
  const lockedBy = (ACTIVE_STATUSES as readonly string[]).includes(row.status) ? await fixtureEngineId(db) : null;
  return db.insertInto('task').values({
    project_id: row.projectId, template_id: row.templateId, status: row.status, user_id: row.userId ?? null, integration_id: null,
    schedule_id: null, build_task_id: null, inventory_id: null, playbook: '', environment: '{}', arguments: null, git_branch: null,
    message: '', commit_hash: null, commit_message: '', version: null, params: '{}', created: row.created ?? now(), start: null, end: null, locked_by: lockedBy,
  }).returningAll().executeTakeFirstOrThrow();
}

/** Row counts of every project-resource table, to prove a failed request changed nothing. */
export async function countProjectRows(db: Db): Promise<Record<string, number>> {
  const tables = ['project', 'access_key', 'repository', 'inventory', 'environment', 'template', 'template_vault', 'template_inventory',
    'view', 'schedule', 'integration', 'integration_matcher', 'integration_extract_value', 'integration_alias', 'event'] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
