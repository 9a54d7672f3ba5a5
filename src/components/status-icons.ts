// Icons of the task statuses, apart from the other icons so the task log island (which draws
// live status chips in the browser) ships only these few paths.
import { mdiAlertCircle, mdiCancel, mdiCheckCircle, mdiClockOutline, mdiHelpCircle, mdiPlayCircle, mdiProgressClock, mdiStopCircle } from '@mdi/js';
import type { StatusIcon } from '../console/task-status.ts';

export const STATUS_ICONS: Record<StatusIcon, string> = {
  success: mdiCheckCircle, error: mdiAlertCircle, running: mdiPlayCircle, waiting: mdiClockOutline,
  starting: mdiProgressClock, question: mdiHelpCircle, stopped: mdiStopCircle, canceled: mdiCancel,
};
