import type { Insertable } from 'kysely';
import type { Db } from '../../src/server/db/database.ts';
import type { ScheduleTable } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { EventBus } from '../../src/server/events/event-bus.ts';
import { openDatabase } from '../../src/server/db/database.ts';
import { insertProjectWithTemplate } from './fixtures.ts';
import { ADMIN, type TestServer } from './harness.ts';

/** A project with a template, owned by the env admin. */
export async function insertAdminProject(server: TestServer) {
  const admin = await server.deps.db.selectFrom('user').select('id').where('username', '=', ADMIN.login).executeTakeFirstOrThrow();
  return { adminId: admin.id, ...(await insertProjectWithTemplate(server.deps.db, { ownerId: admin.id })) };
}

/** A schedule row (active `* * * * *` cron unless told otherwise). */
export async function insertSchedule(db: Db, values: Pick<Insertable<ScheduleTable>, 'project_id' | 'template_id'> & Partial<Insertable<ScheduleTable>>) {
  return db.insertInto('schedule').values({
    name: 'Every minute', cron_format: '* * * * *', type: '', run_at: null, active: 1, repository_id: null,
    last_commit_hash: null, task_params: '{}', ...values,
  }).returningAll().executeTakeFirstOrThrow();
}

/** A second set of Deps on its own connection pool to the same database: a "second server process". */
export function openSecondDeps(server: TestServer): Deps {
  return { ...server.deps, db: openDatabase(server.config.db), bus: new EventBus() };
}

/** Tasks of a project, oldest first. */
export async function listTasks(db: Db, projectId: number) {
  return db.selectFrom('task').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/** A clock the test moves by hand. */
export function manualClock(start: string) {
  let current = new Date(start);
  return { now: () => new Date(current), set: (iso: string) => { current = new Date(iso); } };
}


/** An integration with its secret key, matchers, extracted values and an alias of its own. */
export async function insertIntegration(server: TestServer, projectId: number, templateId: number, options: {
  name?: string; auth_method?: string; auth_header?: string | null; secret?: { login: string; password: string };
  searchable?: boolean; task_params?: Record<string, unknown>; alias?: string | null;
  matchers?: Array<{ name: string; match_type: string; method: string; body_data_type?: string; key: string; value: string }>;
  values?: Array<{ name?: string; value_source: string; body_data_type?: string; key?: string; variable: string; variable_type?: string }>;
} = {}) {
  const { db } = server.deps;
  const key = options.secret
    ? await db.insertInto('access_key').values({
      project_id: projectId, name: 'Webhook secret', type: 'login_password', secret: server.deps.secrets.seal(JSON.stringify(options.secret)),
      owner: '', environment_id: null, created: new Date().toISOString(),
    }).returningAll().executeTakeFirstOrThrow()
    : undefined;
  const integration = await db.insertInto('integration').values({
    project_id: projectId, name: options.name ?? 'Hook', template_id: templateId, auth_method: options.auth_method ?? 'none',
    auth_secret_id: key?.id ?? null, auth_header: options.auth_header ?? null, searchable: options.searchable ? 1 : 0,
    task_params: JSON.stringify(options.task_params ?? {}),
  }).returningAll().executeTakeFirstOrThrow();
  for (const m of options.matchers ?? []) {
    await db.insertInto('integration_matcher').values({ integration_id: integration.id, body_data_type: 'json', ...m }).execute();
  }
  for (const v of options.values ?? []) {
    await db.insertInto('integration_extract_value').values({
      integration_id: integration.id, name: v.name ?? v.variable, value_source: v.value_source, body_data_type: v.body_data_type ?? 'json',
      key: v.key ?? '', variable: v.variable, variable_type: v.variable_type ?? 'environment',
    }).execute();
  }
  const alias = options.alias === null ? undefined : options.alias ?? `hook${integration.id}x${Math.random().toString(36).slice(2, 10)}`;
  if (alias) await db.insertInto('integration_alias').values({ alias, project_id: projectId, integration_id: integration.id }).execute();
  return { integration, alias: alias ?? '' };
}

/** Deliveries recorded for an integration, oldest first. */
export async function listDeliveryRows(db: Db, integrationId: number) {
  return db.selectFrom('integration_delivery').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();
}
