import type { Db } from '../../db/database.ts';

/** How a host's last run of a template ended, read from its PLAY RECAP line. */
export const HOST_RESULTS = ['failed', 'unreachable', 'changed', 'ok'] as const;
export type HostResult = (typeof HOST_RESULTS)[number];

export interface HostTemplateResult {
  template_id: number;
  template_name: string;
  task_id: number;
  result: HostResult;
  /** when the recap was recorded */
  time: string;
}

export interface HostHistory {
  /** the last result per template, newest first */
  results: HostTemplateResult[];
  /** the last recap in which the host was reachable */
  lastSeen: string | null;
}

/**
 * Every host's last recap line per template of the project, and when it was last reached,
 * from the PLAY RECAP rows the engine recorded: two grouped reads, whatever the number of runs;
 * `only` some hosts (a page of them) when given.
 * @example (await hostHistories(db, 1)).get('web1')?.results[0]?.result // 'failed'
 */
export async function hostHistories(db: Db, projectId: number, only?: string[]): Promise<Map<string, HostHistory>> {
  const [latest, seen] = await Promise.all([
    db.selectFrom('task_ansible_host as h').innerJoin('task', 'task.id', 'h.task_id').innerJoin('template', 'template.id', 'task.template_id')
      .select(['h.host', 'h.task_id', 'h.failed', 'h.unreachable', 'h.changed', 'h.created', 'task.template_id', 'template.name as template_name'])
      .where('h.id', 'in', (eb) => {
        const rows = eb.selectFrom('task_ansible_host as r').innerJoin('task as t', 't.id', 'r.task_id')
          .select((e) => e.fn.max('r.id').as('id')).where('r.project_id', '=', projectId);
        return (only ? rows.where('r.host', 'in', only.length ? only : ['']) : rows).groupBy(['r.host', 't.template_id']);
      })
      .orderBy('h.id', 'desc').execute(),
    (only ? db.selectFrom('task_ansible_host').where('host', 'in', only.length ? only : ['']) : db.selectFrom('task_ansible_host'))
      .select(['host', (eb) => eb.fn.max('created').as('seen')])
      .where('project_id', '=', projectId).where('unreachable', '=', 0).groupBy('host').execute(),
  ]);
  const histories = new Map<string, HostHistory>();
  const historyOf = (host: string) => {
    let history = histories.get(host);
    if (!history) histories.set(host, history = { results: [], lastSeen: null });
    return history;
  };
  for (const row of latest) {
    historyOf(row.host).results.push({
      template_id: row.template_id, template_name: row.template_name, task_id: row.task_id, result: resultOf(row), time: row.created,
    });
  }
  for (const row of seen) historyOf(row.host).lastSeen = row.seen === null ? null : String(row.seen);
  return histories;
}

/** A recap line's outcome: failed over unreachable over changed over ok. */
export function resultOf(row: { failed: number; unreachable: number; changed: number }): HostResult {
  if (row.failed > 0) return 'failed';
  if (row.unreachable > 0) return 'unreachable';
  return row.changed > 0 ? 'changed' : 'ok';
}
