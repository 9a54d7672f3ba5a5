import type { Db, Tx } from '../../db/database.ts';
import { now } from '../../lib/time.ts';
import { auditEvent, type ActivityEntry } from '../audit/audit.writer.ts';

export type NewEvent = ActivityEntry;

/**
 * Records one activity-log entry. Called inside the same transaction as the change it describes.
 * While auditing is on, a request's first entry travels in its audit row (see auditEvent).
 * @example await recordEvent(tx, { projectId: 1, userId: 2, objectType: 'key', objectId: 5, description: 'Access Key deploy created' });
 */
export async function recordEvent(db: Db | Tx, event: NewEvent): Promise<void> {
  const audit = await auditEvent(db, event);
  if (audit.carried) return;
  await db.insertInto('event').values({
    project_id: event.projectId,
    user_id: event.userId,
    integration_id: event.integrationId ?? null,
    object_id: event.objectId,
    object_type: event.objectType,
    object_name: event.objectName ?? '',
    description: event.description,
    created: now(),
    audit_id: audit.auditId,
  }).execute();
}
