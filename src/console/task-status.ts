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

export type StatusTone = 'success' | 'danger' | 'info' | 'warning' | 'neutral';
export type StatusIcon = 'success' | 'error' | 'running' | 'waiting' | 'starting' | 'question' | 'stopped' | 'canceled';

const LOOKS: Record<string, [StatusTone, StatusIcon]> = {
  success: ['success', 'success'], error: ['danger', 'error'], running: ['info', 'running'], starting: ['info', 'starting'],
  confirmed: ['info', 'starting'], waiting: ['neutral', 'waiting'], waiting_confirmation: ['warning', 'question'],
  stopping: ['neutral', 'stopped'], stopped: ['neutral', 'stopped'], canceled: ['neutral', 'canceled'], rejected: ['neutral', 'canceled'],
  // workflow runs and their nodes
  failed: ['danger', 'error'], approval: ['warning', 'question'], delay: ['info', 'waiting'], pending: ['neutral', 'waiting'],
};

/**
 * Colour tone and icon of a status chip; an unknown status looks neutral.
 * @example statusLook('error') // ['danger', 'error']
 */
export function statusLook(status: string): [StatusTone, StatusIcon] {
  return (Object.hasOwn(LOOKS, status) ? LOOKS[status] : undefined) ?? ['neutral', 'waiting'];
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
