import type { Db, Tx } from '../../db/database.ts';
import { now } from '../../lib/time.ts';
import { auditEvent } from '../audit/audit.writer.ts';

export interface NewEvent {
  projectId: number | null;
  userId: number | null;
  objectType: string;
  objectId: number | null;
  description: string;
  objectName?: string;
  /** the object's name for the audit row when the entry shows none (its description names it); else it is looked up, and a deleted object has none */
  auditName?: string;
  integrationId?: number | null;
}

/**
 * Records one activity-log entry. Called inside the same transaction as the change it describes.
 * @example await recordEvent(tx, { projectId: 1, userId: 2, objectType: 'key', objectId: 5, description: 'Access Key deploy created' });
 */
export async function recordEvent(db: Db | Tx, event: NewEvent): Promise<void> {
  const auditId = await auditEvent(db, event);
  await db.insertInto('event').values({
    project_id: event.projectId,
    user_id: event.userId,
    integration_id: event.integrationId ?? null,
    object_id: event.objectId,
    object_type: event.objectType,
    object_name: event.objectName ?? '',
    description: event.description,
    created: now(),
    audit_id: auditId,
  }).execute();
}
