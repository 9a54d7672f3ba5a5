import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect-types.ts';

/**
 * The wall board's state of each template (issue 34): its last task, its last successful task,
 * its failure streak (failed tasks since the last successful one, all of them when it never
 * succeeded) and whether its last task is running, with the template's name, project and view
 * copied beside them. The board reads one project's top tiles straight from the index instead
 * of grouping all of the project's tasks on every request.
 * Database triggers keep the rows right, so every writer counts (the engine, restores, imports,
 * rows written by hand): a new task moves its template's row by one; a task's status change,
 * move or delete recomputes the row from the indexes task(template_id, id) and
 * task(template_id, status, id), unless the task is older than the template's last success.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('template_board_state')
    .addColumn('template_id', 'integer', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('view_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('last_task_id', 'integer')
    .addColumn('last_success_id', 'integer')
    .addColumn('fail_streak', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('running', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // every task's start and end rewrites its template's row: room on the page lets PostgreSQL
  // update in place (HOT) when no indexed column changes, instead of leaving dead index entries
  if (isPostgres(db)) await sql`alter table template_board_state set (fillfactor = 50)`.execute(db);
  await db.schema.createIndex('template_board_state_tiles').on('template_board_state')
    .columns(['project_id', 'fail_streak desc', 'running desc', 'name', 'template_id']).execute();
  for (const statement of isPostgres(db) ? postgresTriggers() : sqliteTriggers()) await sql.raw(statement).execute(db);
  await sql`insert into template_board_state (template_id, project_id, view_id, name) select id, project_id, view_id, name from template`.execute(db);
  await sql.raw(`update template_board_state set ${recomputed('template_board_state.template_id')}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger task_board_state on task`.execute(db);
    await sql`drop trigger template_board_state_sync on template`.execute(db);
    await sql`drop function task_board_state()`.execute(db);
    await sql`drop function template_board_state_sync()`.execute(db);
  } else {
    for (const name of SQLITE_TRIGGERS) await sql.raw(`drop trigger ${name}`).execute(db);
  }
  await db.schema.dropTable('template_board_state').execute();
}

/** Statuses of a running task (tasks/task-status.ts ACTIVE_STATUSES when this was written). */
const ACTIVE = `('starting', 'running', 'waiting_confirmation', 'confirmed', 'stopping')`;

/** The `set` list that recomputes the row of the template `id` (an SQL expression) from its tasks. */
function recomputed(id: string): string {
  const last = `(select max(id) from task where template_id = ${id})`;
  const lastSuccess = `(select max(id) from task where template_id = ${id} and status = 'success')`;
  return `last_task_id = ${last},
    last_success_id = ${lastSuccess},
    fail_streak = (select count(*) from task where template_id = ${id} and status = 'error' and id > coalesce(${lastSuccess}, 0)),
    running = coalesce((select case when status in ${ACTIVE} then 1 else 0 end from task where id = ${last}), 0)`;
}

/**
 * Recomputes the template's row after a change to one of its tasks (`task`: the task row,
 * `new` or `old`), unless the task comes before the template's last success: such a task moves
 * none of the row's values, so retention deleting old tasks costs a key lookup, not a count.
 */
function changed(task: string, also = ''): string {
  return `update template_board_state set ${recomputed(`${task}.template_id`)}
    where template_id = ${task}.template_id and coalesce(last_success_id, 0) <= ${task}.id ${also};`;
}

/** A task added to its template (written or moved there): the newest moves the row by one without counting. */
function added(): string {
  return `update template_board_state set last_task_id = new.id,
      last_success_id = case when new.status = 'success' then new.id else last_success_id end,
      fail_streak = case new.status when 'success' then 0 when 'error' then fail_streak + 1 else fail_streak end,
      running = case when new.status in ${ACTIVE} then 1 else 0 end
    where template_id = new.template_id and coalesce(last_task_id, 0) < new.id;
    ${changed('new', 'and last_task_id <> new.id')}`;
}

/** A task gone from its template; nothing to do when the template went first (its tasks go with it). */
function removed(): string {
  return changed('old', 'and exists (select 1 from template where template.id = old.template_id)');
}

const SQLITE_TRIGGERS = [
  'task_board_state_insert', 'task_board_state_update', 'task_board_state_move', 'task_board_state_delete',
  'template_board_state_insert', 'template_board_state_update', 'template_board_state_delete',
];

function sqliteTriggers(): string[] {
  return [
    `create trigger task_board_state_insert after insert on task begin ${added()} end`,
    `create trigger task_board_state_update after update of status on task when new.template_id = old.template_id begin ${changed('new')} end`,
    `create trigger task_board_state_move after update of template_id on task when new.template_id <> old.template_id begin
      ${removed()}
      ${added()}
    end`,
    `create trigger task_board_state_delete after delete on task begin ${removed()} end`,
    `create trigger template_board_state_insert after insert on template begin
      insert into template_board_state (template_id, project_id, view_id, name) values (new.id, new.project_id, new.view_id, new.name);
    end`,
    `create trigger template_board_state_update after update of name, project_id, view_id on template begin
      update template_board_state set name = new.name, project_id = new.project_id, view_id = new.view_id where template_id = new.id;
    end`,
    `create trigger template_board_state_delete after delete on template begin
      delete from template_board_state where template_id = old.id;
    end`,
  ];
}

/**
 * Each change locks the template's row first, in a statement of its own: two transactions writing
 * tasks of one template at once (a task ending while another is queued) would otherwise each count
 * without the other's task, the later one waiting on the row and then writing what it counted
 * before. After the lock, the next statement's snapshot sees the other's committed tasks.
 */
function locked(task: string, change: string): string {
  return `perform 1 from template_board_state where template_id = ${task}.template_id for update; ${change}`;
}

function postgresTriggers(): string[] {
  return [
    `create function task_board_state() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.template_id = old.template_id then ${locked('new', changed('new'))}
      else
        if tg_op <> 'INSERT' then ${locked('old', removed())} end if;
        if tg_op <> 'DELETE' then ${locked('new', added())} end if;
      end if;
      return null;
    end $$`,
    `create trigger task_board_state after insert or delete or update of status, template_id on task
      for each row execute function task_board_state()`,
    `create function template_board_state_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into template_board_state (template_id, project_id, view_id, name) values (new.id, new.project_id, new.view_id, new.name);
      elsif tg_op = 'UPDATE' then
        update template_board_state set name = new.name, project_id = new.project_id, view_id = new.view_id where template_id = new.id;
      else
        delete from template_board_state where template_id = old.id;
      end if;
      return null;
    end $$`,
    `create trigger template_board_state_sync after insert or delete or update of name, project_id, view_id on template
      for each row execute function template_board_state_sync()`,
  ];
}
