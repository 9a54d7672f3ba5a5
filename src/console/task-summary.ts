import type { AstroGlobal } from 'astro';
import { apiGetOr } from './runner-api.ts';
import type { AnsibleTaskError, AnsibleTaskHost, TaskStage } from './types.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

export interface TaskSummaryData {
  stages: TaskStage[];
  hosts: AnsibleTaskHost[];
  errors: AnsibleTaskError[];
}

/**
 * A task's summary from the runner API: stages, recap hosts (failed and unreachable first) and
 * failed tasks. A runner API without the summary (Semaphore's open edition) gives empty lists.
 * @example const { stages, hosts, errors } = await loadTaskSummary(Astro, 3, 41);
 */
export async function loadTaskSummary(astro: AstroLike, projectId: number, taskId: number): Promise<TaskSummaryData> {
  const base = `/api/project/${projectId}/tasks/${taskId}`;
  const [stages, hosts, errors] = await Promise.all([
    apiGetOr<TaskStage[]>(astro, `${base}/stages`, []),
    apiGetOr<AnsibleTaskHost[]>(astro, `${base}/ansible/hosts`, []),
    apiGetOr<AnsibleTaskError[]>(astro, `${base}/ansible/errors`, []),
  ]);
  return { stages, hosts: problemsFirst(hosts), errors };
}

/** Hosts with failures or unreachable first, then by name: the ones to look at lead. */
export function problemsFirst(hosts: AnsibleTaskHost[]): AnsibleTaskHost[] {
  const troubled = (h: AnsibleTaskHost) => (h.failed > 0 || h.unreachable > 0 ? 0 : 1);
  return [...hosts].sort((a, b) => troubled(a) - troubled(b) || a.host.localeCompare(b.host));
}
