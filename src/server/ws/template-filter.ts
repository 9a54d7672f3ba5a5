import type { Db } from '../db/database.ts';
import type { BusMessage } from '../events/event-bus.ts';
import { seesTemplate, templateScopesOf, type TemplateScope } from '../domain/templates/template-visibility.ts';
import type { SocketAccess } from './socket-access.ts';

interface Listener { userId: number; access: SocketAccess | null }

/**
 * Which of a batch's task messages each socket may hear as far as templates go: an `update`
 * or `log` of a template its user may not see (domain/templates/template-visibility.ts) is
 * not sent. Asked once per batch: a user's scopes in the batch's projects, and the template of
 * each logged task only where some scope is narrowed.
 */
export async function templateFilter(db: Db, listeners: readonly Listener[], batch: readonly BusMessage[]): Promise<(listener: Listener, message: BusMessage) => boolean> {
  const projectIds = [...new Set(batch.filter((m) => m.type !== 'workflow').map((m) => m.project_id))];
  const scopes = new Map<number, Map<number, TemplateScope>>();
  for (const { userId, access } of listeners) {
    if (!access?.live || scopes.has(userId)) continue;
    const theirs = projectIds.filter((id) => access.admin || access.projects.has(id));
    scopes.set(userId, await templateScopesOf(db, { id: userId, admin: access.admin || Boolean(access.seesAllTemplates) }, theirs));
  }
  const narrowed = new Set([...scopes.values()].flatMap((byProject) => [...byProject].filter(([, scope]) => scope !== null).map(([id]) => id)));
  const loggedTasks = [...new Set(batch.flatMap((m) => (m.type === 'log' && narrowed.has(m.project_id) ? [m.task_id] : [])))];
  const rows = loggedTasks.length ? await db.selectFrom('task').select(['id', 'template_id']).where('id', 'in', loggedTasks).execute() : [];
  const templateOfTask = new Map(rows.map((r) => [r.id, r.template_id]));
  return (listener, message) => {
    if (message.type === 'workflow') return true;
    const scope = scopes.get(listener.userId)?.get(message.project_id) ?? null;
    if (scope === null) return true;
    return seesTemplate(scope, message.type === 'update' ? message.template_id : templateOfTask.get(message.task_id) ?? null);
  };
}
