import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Workflows (Semaphore Pro 2.19 shapes): a graph of task, approval, delay and note nodes joined
 * by edges, a version per save, runs with one row per started node (unique per run and node:
 * the insert is the claim, so a node starts once however many servers try), approvals with
 * their decisions, the run's history, and the outputs a task wrote for the nodes after it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await withId(db.schema.createTable('workflow'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_version', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflow_project').on('workflow').column('project_id').execute();
  await withId(db.schema.createTable('workflow_node'), pg)
    .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflow.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('template_id', 'integer', (c) => c.references('template.id').onDelete('set null'))
    .addColumn('convergence_mode', 'text', (c) => c.notNull().defaultTo('all'))
    .addColumn('approval_timeout', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('approval_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('approval_four_eyes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delay_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('task_params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('pos_x', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pos_y', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('workflow_node_workflow').on('workflow_node').column('workflow_id').execute();
  await db.schema.createIndex('workflow_node_template').on('workflow_node').column('template_id').execute();
  await withId(db.schema.createTable('workflow_edge'), pg)
    .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflow.id').onDelete('cascade'))
    .addColumn('source_node_id', 'integer', (c) => c.notNull().references('workflow_node.id').onDelete('cascade'))
    .addColumn('destination_node_id', 'integer', (c) => c.notNull().references('workflow_node.id').onDelete('cascade'))
    .addColumn('condition', 'text', (c) => c.notNull().defaultTo('on_success'))
    .addColumn('input_mode', 'text', (c) => c.notNull().defaultTo('by_name'))
    .addColumn('input_mappings', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('workflow_edge_workflow').on('workflow_edge').column('workflow_id').execute();
  await withId(db.schema.createTable('workflow_version'), pg)
    .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflow.id').onDelete('cascade'))
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addColumn('parent_version_id', 'integer')
    .addColumn('restored_from_version_id', 'integer')
    .addColumn('author_user_id', 'integer')
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content_fingerprint', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addUniqueConstraint('workflow_version_number', ['workflow_id', 'version_number'])
    .execute();
  await withId(db.schema.createTable('workflow_run'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflow.id').onDelete('cascade'))
    .addColumn('version_id', 'integer')
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('version', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('start', 'text')
    .addColumn('end', 'text')
    .execute();
  await db.schema.createIndex('workflow_run_workflow').on('workflow_run').columns(['workflow_id', 'id']).execute();
  await db.schema.createIndex('workflow_run_status').on('workflow_run').column('status').execute();
  await withId(db.schema.createTable('workflow_run_node'), pg)
    .addColumn('run_id', 'integer', (c) => c.notNull().references('workflow_run.id').onDelete('cascade'))
    .addColumn('node_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('task_id', 'integer')
    .addColumn('due', 'text')
    .addColumn('outputs', 'text')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('input_log', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text')
    .addUniqueConstraint('workflow_run_node_once', ['run_id', 'node_id'])
    .execute();
  await db.schema.createIndex('workflow_run_node_task').on('workflow_run_node').column('task_id').execute();
  await withId(db.schema.createTable('workflow_approval'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('run_id', 'integer', (c) => c.notNull().references('workflow_run.id').onDelete('cascade'))
    .addColumn('node_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('resolved', 'text')
    .addColumn('resolved_by_user_id', 'integer')
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addUniqueConstraint('workflow_approval_once', ['run_id', 'node_id'])
    .execute();
  await withId(db.schema.createTable('workflow_run_history'), pg)
    .addColumn('run_id', 'integer', (c) => c.notNull().references('workflow_run.id').onDelete('cascade'))
    .addColumn('node_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflow_run_history_run').on('workflow_run_history').column('run_id').execute();
  await db.schema.createTable('task_output_value')
    .addColumn('task_id', 'integer', (c) => c.primaryKey().references('task.id').onDelete('cascade'))
    .addColumn('outputs', 'text', (c) => c.notNull())
    .addColumn('not_captured', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['task_output_value', 'workflow_run_history', 'workflow_approval', 'workflow_run_node', 'workflow_run', 'workflow_version', 'workflow_edge', 'workflow_node', 'workflow']) {
    await db.schema.dropTable(table).execute();
  }
}
