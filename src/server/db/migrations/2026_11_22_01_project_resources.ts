import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

const projectRef = 'project.id';

/** Key store, repositories, inventories, variable groups, templates, views, schedules, integrations. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await withId(db.schema.createTable('access_key'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('environment_id', 'integer')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('repository'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('git_url', 'text', (c) => c.notNull())
    .addColumn('git_branch', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ssh_key_id', 'integer', (c) => c.notNull().references('access_key.id'))
    .execute();

  await withId(db.schema.createTable('inventory'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('inventory', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ssh_key_id', 'integer', (c) => c.references('access_key.id'))
    .addColumn('become_key_id', 'integer', (c) => c.references('access_key.id'))
    .addColumn('repository_id', 'integer', (c) => c.references('repository.id'))
    .addColumn('holder_id', 'integer')
    .execute();

  await withId(db.schema.createTable('environment'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password', 'text')
    .addColumn('json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('env', 'text')
    .execute();

  await withId(db.schema.createTable('view'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort_column', 'text')
    .addColumn('sort_reverse', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db.schema.createTable('template'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('app', 'text', (c) => c.notNull().defaultTo('ansible'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('playbook', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('inventory_id', 'integer', (c) => c.references('inventory.id'))
    .addColumn('repository_id', 'integer', (c) => c.references('repository.id'))
    .addColumn('environment_id', 'integer', (c) => c.references('environment.id'))
    .addColumn('arguments', 'text')
    .addColumn('allow_override_args_in_task', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_override_branch_in_task', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_parallel_tasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_version', 'text')
    .addColumn('build_template_id', 'integer', (c) => c.references('template.id'))
    .addColumn('view_id', 'integer', (c) => c.references('view.id').onDelete('set null'))
    .addColumn('autorun', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('git_branch', 'text')
    .addColumn('survey_vars', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('suppress_success_alerts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('task_params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('runner_tag', 'text')
    .addColumn('working_directory', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('template_vault'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('vault_key_id', 'integer', (c) => c.references('access_key.id'))
    .addColumn('name', 'text')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('password'))
    .addColumn('script', 'text')
    .execute();

  await db.schema.createTable('template_inventory')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('template_inventory_pk', ['template_id', 'inventory_id'])
    .execute();

  await withId(db.schema.createTable('schedule'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cron_format', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('run_at', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('repository_id', 'integer', (c) => c.references('repository.id'))
    .addColumn('last_commit_hash', 'text')
    .addColumn('task_params', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await db.schema.createTable('schedule_firing')
    .addColumn('schedule_id', 'integer', (c) => c.notNull().references('schedule.id').onDelete('cascade'))
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('task_id', 'integer')
    .addPrimaryKeyConstraint('schedule_firing_pk', ['schedule_id', 'due_at'])
    .execute();

  await withId(db.schema.createTable('integration'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id'))
    .addColumn('auth_method', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('auth_secret_id', 'integer', (c) => c.references('access_key.id'))
    .addColumn('auth_header', 'text')
    .addColumn('searchable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('task_params', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await withId(db.schema.createTable('integration_matcher'), pg)
    .addColumn('integration_id', 'integer', (c) => c.notNull().references('integration.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('match_type', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('body_data_type', 'text', (c) => c.notNull().defaultTo('json'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('integration_extract_value'), pg)
    .addColumn('integration_id', 'integer', (c) => c.notNull().references('integration.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value_source', 'text', (c) => c.notNull())
    .addColumn('body_data_type', 'text', (c) => c.notNull().defaultTo('json'))
    .addColumn('key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('variable', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('variable_type', 'text', (c) => c.notNull().defaultTo('environment'))
    .execute();

  await withId(db.schema.createTable('integration_alias'), pg)
    .addColumn('alias', 'text', (c) => c.notNull().unique())
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('integration_id', 'integer', (c) => c.references('integration.id').onDelete('cascade'))
    .execute();

  await withId(db.schema.createTable('integration_delivery'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references(projectRef).onDelete('cascade'))
    .addColumn('integration_id', 'integer', (c) => c.notNull().references('integration.id').onDelete('cascade'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('matched', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('task_id', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const tables = ['integration_delivery', 'integration_alias', 'integration_extract_value', 'integration_matcher',
    'integration', 'schedule_firing', 'schedule', 'template_inventory', 'template_vault', 'template', 'view',
    'environment', 'inventory', 'repository', 'access_key'];
  for (const table of tables) await db.schema.dropTable(table).execute();
}
