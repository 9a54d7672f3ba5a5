import type { ProjectRow } from '../../db/schema.ts';

export interface Project {
  id: number;
  name: string;
  created: string;
  alert: boolean;
  alert_chat: string | null;
  max_parallel_tasks: number;
  type: string;
  /** retention: 0 = the server-wide setting */
  task_retention_days: number;
  task_retention_count: number;
  output_retention_days: number;
  /** the image of its templates that name none; null: the server's default */
  executor_image: string | null;
}

export function projectRowToProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    created: row.created,
    alert: Boolean(row.alert),
    alert_chat: row.alert_chat,
    max_parallel_tasks: row.max_parallel_tasks,
    type: row.type,
    task_retention_days: row.task_retention_days,
    task_retention_count: row.task_retention_count,
    output_retention_days: row.output_retention_days,
    executor_image: row.executor_image,
  };
}
