import type { Db } from '../../db/database.ts';
import type { TaskAnsibleErrorRow, TaskAnsibleHostRow, TaskStageRow } from '../../db/schema.ts';
import { parseJsonColumn } from '../shared/project-refs.ts';

/** A stage as Semaphore sends it (`TaskStageWithResult`): `result` is parsed JSON or null. */
export type TaskStage = Omit<TaskStageRow, 'result'> & { result: unknown };

/** Stages of a task in the order they ran. */
export async function listTaskStages(db: Db, taskId: number): Promise<TaskStage[]> {
  const rows = await db.selectFrom('task_stage').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
  return rows.map((row) => ({ ...row, result: row.result === null ? null : parseJsonColumn<unknown>(row.result, null) }));
}

/** PLAY RECAP hosts of a task, in recap order. */
export function listAnsibleHosts(db: Db, taskId: number): Promise<TaskAnsibleHostRow[]> {
  return db.selectFrom('task_ansible_host').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
}

/** Failed and unreachable tasks of a task's run, in the order they happened. */
export function listAnsibleErrors(db: Db, taskId: number): Promise<TaskAnsibleErrorRow[]> {
  return db.selectFrom('task_ansible_error').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
}
