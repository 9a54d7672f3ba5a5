import type { Db } from '../../db/database.ts';
import { settleAuditInbox } from '../audit/audit-inbox.ts';
import { notAboutTemplates } from '../templates/hidden-template-rows.ts';

/** An activity-log entry as the API shows it (reference §3.14; the row id stays hidden). */
export interface EventView {
  user_id: number | null;
  project_id: number | null;
  integration_id: number | null;
  object_id: number | null;
  object_type: string;
  description: string;
  created: string;
  object_name: string;
  project_name: string | null;
  username: string | null;
  /** from the audit trail (null for entries older than it): what the request did */
  action: string | null;
  /** the names of the fields an update set (never their values) */
  fields: string[];
  /** where the request came from: only for viewers who may read the audit trail */
  client_ip?: string | null;
  user_agent?: string | null;
}

/**
 * Which events to list: one project's, or everything the viewer may see. `withClient` adds the
 * requests' client address and agent, for viewers who may read the audit trail.
 */
export type EventScope = ({ projectId: number } | { viewer: { id: number; admin: number } }) & {
  withClient?: boolean;
  /** templates the viewer does not see: events about them, their tasks and schedules are left out (issue 52) */
  hiddenTemplates?: readonly number[];
};

/**
 * Events newest first: one project's, or those of every project the viewer may see (all of
 * them for admins). Like Semaphore's, the log holds projects' events only: project-less ones
 * (users created, passwords changed) stay in the audit trail (`/api/audit`).
 * @example await listEvents(db, { projectId: 3 }, 200);
 */
export async function listEvents(db: Db, scope: EventScope, limit?: number): Promise<EventView[]> {
  await settleAuditInbox(db);
  let query = db.selectFrom('event')
    .leftJoin('project', 'project.id', 'event.project_id')
    .leftJoin('user', 'user.id', 'event.user_id')
    .leftJoin('audit', 'audit.id', 'event.audit_id')
    .select([
      'event.user_id', 'event.project_id', 'event.integration_id', 'event.object_id', 'event.object_type',
      'event.description', 'event.created', 'event.object_name', 'project.name as project_name', 'user.username as username',
      'audit.action', 'audit.fields', 'audit.client_ip', 'audit.user_agent',
    ])
    .orderBy('event.created', 'desc').orderBy('event.id', 'desc');
  if ('projectId' in scope) {
    query = query.where('event.project_id', '=', scope.projectId);
  } else if (scope.viewer.admin) {
    query = query.where('event.project_id', 'is not', null);
  } else {
    const viewerId = scope.viewer.id;
    query = query.where('event.project_id', 'in', (eb) => eb.selectFrom('project_user').select('project_user.project_id').where('project_user.user_id', '=', viewerId));
  }
  const hidden = scope.hiddenTemplates ?? [];
  if (hidden.length) query = query.where(notAboutTemplates('event', hidden));
  if (limit) query = query.limit(limit);
  return (await query.execute()).map(({ fields, client_ip, user_agent, ...row }) => ({
    ...row,
    action: row.action ?? null,
    fields: fields ? fields.split(',') : [],
    ...(scope.withClient ? { client_ip: client_ip ?? null, user_agent: user_agent ?? null } : {}),
  }));
}
