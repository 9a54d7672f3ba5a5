import SvgIcon from './SvgIcon.tsx';
import { statusLook } from '../console/task-status.ts';
import { STATUS_ICONS } from '../components/status-icons.ts';

/** The island twin of components/StatusChip.astro, for a status that changes live. */
export default function StatusChip({ status, label }: { status: string; label: string }) {
  const [tone, icon] = statusLook(status);
  return <span className={`chip chip-${tone}`} data-status={status}><SvgIcon path={STATUS_ICONS[icon]} />{label}</span>;
}
