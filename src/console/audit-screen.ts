/** What the Audit screens read and link: the filter in the page's query string, the API paths. */

/** Filter fields of the Audit screens, as the API names them. */
export const AUDIT_FILTERS = ['q', 'user', 'action', 'object_type', 'project_id', 'from', 'to'] as const;

/** Actions the action filter offers (any other can still be typed into the URL). */
export const AUDIT_ACTIONS = [
  'create', 'update', 'delete', 'login_success', 'login_fail', 'logout', 'mfa_success', 'mfa_fail', 'password_change',
  'token_create', 'token_delete', 'session_delete', 'task_start', 'task_stop', 'task_confirm', 'task_reject', 'restore', 'purge',
];

export interface AuditRow {
  id: number; created: string; action: string; actor_user_id: number | null; actor_name: string; actor_token: string;
  client_ip: string; user_agent: string; project_id: number | null; project_name: string; object_type: string;
  object_id: number | null; object_name: string; fields: string; description: string; object_url: string | null;
}

export interface AuditBacklog { sink: string; delivered_seq: number; pending: number; last_error: string }

/**
 * The API query of the page's filter: empty fields left out, a `to` date made the next day's
 * start (the form's "to" includes its day; the API's excludes it).
 * @example auditQuery(new URL('http://x/audit?q=deploy&to=2026-01-31')) // q=deploy&to=2026-02-01
 */
export function auditQuery(url: URL, allowProject: boolean): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of AUDIT_FILTERS) {
    const value = url.searchParams.get(name)?.trim();
    if (!value || (name === 'project_id' && !allowProject)) continue;
    query.set(name, name === 'to' && /^\d{4}-\d\d-\d\d$/.test(value) ? nextDay(value) : value);
  }
  return query;
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** The page's own link with `before` set to the cursor (or removed for the newest page). */
export function pageLink(url: URL, before: number | null): string {
  const next = new URL(url);
  if (before === null) next.searchParams.delete('before');
  else next.searchParams.set('before', String(before));
  return next.pathname + next.search;
}
