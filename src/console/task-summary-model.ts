// A task's summary as the console shows it (stages, PLAY RECAP hosts, failed tasks): pure, so the
// server render and the task dialog's live Summary tab share it.
import type { AnsibleTaskError, AnsibleTaskHost, TaskStage } from './types.ts';
import { formatTime } from './format.ts';

/** A stage with its start as text, formatted when read, not at every render (Intl is slow to start). */
export type SummaryStage = TaskStage & { startText: string };

export interface TaskSummaryData {
  stages: SummaryStage[];
  hosts: AnsibleTaskHost[];
  errors: AnsibleTaskError[];
}

/**
 * The summary from the three answers of the runner API, hosts with problems first.
 * @example summaryOf(stages, hosts, errors, 'en')
 */
export function summaryOf(stages: TaskStage[], hosts: AnsibleTaskHost[], errors: AnsibleTaskError[], lang: string): TaskSummaryData {
  return { stages: stages.map((s) => ({ ...s, startText: formatTime(s.start, lang) })), hosts: problemsFirst(hosts), errors };
}

/** Hosts with failures or unreachable first, then by name: the ones to look at lead. */
export function problemsFirst(hosts: AnsibleTaskHost[]): AnsibleTaskHost[] {
  const troubled = (h: AnsibleTaskHost) => (h.failed > 0 || h.unreachable > 0 ? 0 : 1);
  return [...hosts].sort((a, b) => troubled(a) - troubled(b) || a.host.localeCompare(b.host));
}

/** The paths of the summary's three parts under a task's API path. */
export const SUMMARY_PARTS = ['stages', 'ansible/hosts', 'ansible/errors'] as const;
