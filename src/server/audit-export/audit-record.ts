import type { AuditRow } from '../db/schema.ts';

/** An audit event as every export sink sends it: flat, with its gap-free sequence number. */
export interface ExportedAuditEvent {
  seq: number;
  id: number;
  time: string;
  action: string;
  user_id: number | null;
  username: string;
  token_prefix: string;
  client_ip: string;
  user_agent: string;
  project_id: number | null;
  project_name: string;
  object_type: string;
  object_id: number | null;
  object_name: string;
  fields: string[];
  description: string;
  request: string;
}

/**
 * The exported form of an audit row.
 * @example exportedEvent(row).seq
 */
export function exportedEvent(row: AuditRow): ExportedAuditEvent {
  return {
    seq: Number(row.seq), id: row.id, time: row.created, action: row.action, user_id: row.actor_user_id, username: row.actor_name,
    token_prefix: row.actor_token, client_ip: row.client_ip, user_agent: row.user_agent, project_id: row.project_id,
    project_name: row.project_name, object_type: row.object_type, object_id: row.object_id, object_name: row.object_name,
    fields: row.fields ? row.fields.split(',') : [], description: row.description, request: row.request,
  };
}

/** Semaphore's raw activity line: `2024-01-03 12:00:34 user=234234 object=template action=delete`, plus our fields. */
export function rawLine(event: ExportedAuditEvent): string {
  const time = event.time.slice(0, 19).replace('T', ' ');
  return `${time} seq=${event.seq} user=${event.user_id ?? ''} object=${event.object_type} action=${event.action} object_id=${event.object_id ?? ''} project=${event.project_id ?? ''} ip=${event.client_ip}`;
}

/** One export destination. `deliver` resolves once the receiver has the events, in order. */
export interface AuditSink {
  name: string;
  /** events per delivery: a failed delivery is sent again whole, so a sink that cannot take a batch at once takes 1 */
  batch: number;
  deliver(events: ExportedAuditEvent[]): Promise<void>;
  close(): Promise<void>;
}
