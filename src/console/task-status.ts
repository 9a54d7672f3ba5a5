/** Task statuses of seed 000 §4 and what each allows. */
export const FINISHED_STATUSES = new Set(['success', 'error', 'stopped', 'canceled', 'rejected']);
const STOPPABLE = new Set(['running', 'stopping', 'waiting', 'starting', 'waiting_confirmation', 'confirmed', 'rejected']);
const RAW_LOG = new Set(['stopped', 'error', 'success', 'canceled', 'rejected']);

/** Whether Stop (or Force stop, while stopping) is offered. */
export function canStop(status: string): boolean {
  return STOPPABLE.has(status);
}

/** Whether Confirm and Reject are offered. */
export function needsConfirmation(status: string): boolean {
  return status === 'waiting_confirmation';
}

/** Whether the raw log link is offered. */
export function hasRawLog(status: string): boolean {
  return RAW_LOG.has(status);
}

/** Whether the task still changes (live updates matter). */
export function isActive(status: string): boolean {
  return !FINISHED_STATUSES.has(status);
}

/** The icon shown next to a status in lists (seed 001 §4). */
export function statusIcon(status: string): string {
  if (status === 'success') return '✓';
  if (status === 'error') return '✗';
  if (status === 'stopped' || status === 'canceled' || status === 'rejected') return '■';
  return '◷';
}

/**
 * The label of seed 000 §4 for a status; an unknown status shows as it is.
 * @example statusLabel(t, 'error') // 'Failed'
 */
export function statusLabel(t: (key: string) => string, status: string): string {
  const key = `status.${status}`;
  const text = t(key);
  return text === key ? status : text;
}
