import type { AstroGlobal } from 'astro';
import { apiGetOr } from './runner-api.ts';
import type { AnsibleTaskError, AnsibleTaskHost, TaskStage } from './types.ts';
import { summaryOf, type TaskSummaryData } from './task-summary-model.ts';

export { problemsFirst, type TaskSummaryData } from './task-summary-model.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

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
  return summaryOf(stages, hosts, errors, astro.locals.lang);
}
