import type { ProjectRow } from '../../db/schema.ts';

export interface Project {
  id: number;
  name: string;
  created: string;
  alert: boolean;
  alert_chat: string | null;
  max_parallel_tasks: number;
  type: string;
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
  };
}
