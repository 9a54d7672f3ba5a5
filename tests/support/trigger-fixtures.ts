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

