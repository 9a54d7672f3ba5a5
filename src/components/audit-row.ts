// One audit row's cells as markup (time, user, action, object, project, address, details): the
// server's AuditScreen and the continuous-list island (src/islands/ScrollList.tsx) both insert
// these. Browser-safe.
import { html, type SafeHtml } from '../console/html.ts';
import type { AuditRow } from '../console/audit-screen.ts';
import { relativeTimeMarkup } from './time-markup.ts';

export interface AuditRowContext {
  t: (key: string) => string;
  lang: string;
  /** the trail of every project shows each row's project */
  withProject: boolean;
}

/** The messages the cells use: the island is given these. */
export const AUDIT_ROW_MESSAGES = ['audit.token', 'audit.open', 'audit.fields'] as const;

/** The columns' message keys, in order; `low` columns hide on phones. */
export function auditColumns(withProject: boolean): { key: string; low?: true }[] {
  return [
    { key: 'audit.time' }, { key: 'audit.user' }, { key: 'audit.action' }, { key: 'audit.object' },
    ...(withProject ? [{ key: 'audit.project', low: true as const }] : []), { key: 'audit.address', low: true }, { key: 'audit.details', low: true },
  ];
}

/** The `<td>`s of one audit row. */
export function auditCellsMarkup(row: AuditRow, ctx: AuditRowContext): SafeHtml {
  const { t } = ctx;
  const user = html`<td>${row.actor_name || '—'}${row.actor_token ? html`<small> (${t('audit.token')} ${row.actor_token}…)</small>` : ''}</td>`;
  const object = html`<td class="wrap-any">${row.object_type}${row.object_id !== null ? ` #${row.object_id}` : ''} ${
    row.object_url ? html`<a href="${row.object_url}">${row.object_name || t('audit.open')}</a>` : row.object_name}</td>`;
  const project = ctx.withProject ? html`<td class="col-low wrap-any">${row.project_id !== null ? (row.project_name || `#${row.project_id}`) : '—'}</td>` : '';
  const address = html`<td class="col-low"${row.user_agent ? html` title="${row.user_agent}"` : ''}>${row.client_ip || '—'}</td>`;
  const details = html`<td class="col-low wrap audit-details">${row.fields ? html`<span>${t('audit.fields')}: ${row.fields.replaceAll(',', ', ')}</span>` : ''}${
    row.description ? html`<span>${row.description}</span>` : ''}</td>`;
  return html`<td>${relativeTimeMarkup(row.created, ctx.lang)}</td>${user}<td><code>${row.action}</code></td>${object}${project}${address}${details}`;
}
