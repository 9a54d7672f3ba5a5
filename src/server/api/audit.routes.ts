import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { badRequest } from '../http/errors.ts';
import { requireAdmin } from '../auth/authenticate.ts';
import { limitQuery } from './route-context.ts';
import { auditBacklog, auditPage, type AuditFilter } from '../domain/audit/audit.queries.ts';
import { auditExportStream } from '../domain/audit/audit-export-stream.ts';
import { withObjectLinks } from '../domain/audit/audit-links.ts';
import { enabledSinkNames } from '../retention/purge-audit.ts';
import { hiddenTemplates } from '../domain/templates/template-visibility.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';

const PAGE_MAX = 500;
const PAGE_DEFAULT = 50;

/**
 * The filter in the query string: `user` (id or name), `action`, `object_type`, `project_id`,
 * `from`/`to` (ISO dates or times), `q` (words), `before` (cursor). Bad values are a 400.
 */
export function auditFilterOf(c: Context<AppEnv>, projectId?: number): AuditFilter {
  const query = (name: string) => c.req.query(name)?.trim() || undefined;
  const id = (name: string) => {
    const raw = query(name);
    if (raw === undefined) return undefined;
    if (!/^\d{1,10}$/.test(raw)) throw badRequest(`${name}: must be a positive whole number`);
    return Number(raw);
  };
  const time = (name: string) => {
    const raw = query(name);
    if (raw === undefined) return undefined;
    const parsed = Date.parse(raw);
    if (!/^\d{4}-\d\d-\d\d/.test(raw) || Number.isNaN(parsed)) throw badRequest(`${name}: must be a date (YYYY-MM-DD) or an ISO date-time`);
    return new Date(parsed).toISOString();
  };
  const text = (name: string, max: number) => {
    const raw = query(name);
    if (raw !== undefined && raw.length > max) throw badRequest(`${name}: at most ${max} characters`);
    return raw;
  };
  return {
    user: text('user', 255), action: text('action', 64), object_type: text('object_type', 64), q: text('q', 200),
    project_id: projectId ?? id('project_id'), from: time('from'), to: time('to'), before: id('before'),
  };
}

/**
 * A project's filter: rows about templates the reader does not see (by grants) are left out, as
 * the templates are; owners and admins see every template, so every row.
 */
async function projectFilterOf(c: Context<AppEnv>): Promise<AuditFilter> {
  const projectId = c.var.project.id;
  return { ...auditFilterOf(c, projectId), hiddenTemplates: await hiddenTemplates(c.var.deps.db, projectId, await templateScopeOf(c)) };
}

async function listHandler(c: Context<AppEnv>, filter: AuditFilter) {
  const page = await auditPage(c.var.deps.db, filter, limitQuery(c, PAGE_MAX, PAGE_DEFAULT));
  return c.json({ rows: await withObjectLinks(c.var.deps.db, page.rows), next: page.next });
}

function exportHandler(c: Context<AppEnv>, filter: AuditFilter, projectId?: number) {
  const format = c.req.query('format') ?? 'csv';
  if (format !== 'csv' && format !== 'jsonl') throw badRequest('format: use csv or jsonl');
  const name = `audit-${projectId ? `project-${projectId}-` : ''}${new Date().toISOString().slice(0, 10)}.${format}`;
  return c.body(auditExportStream(c.var.deps.db, filter, format), 200, {
    'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store',
  });
}

/** `/api/audit`: the whole audit trail, for system administrators. */
export const auditRoutes = new Hono<AppEnv>();
auditRoutes.use('*', requireAdmin());
auditRoutes.get('/', (c) => listHandler(c, auditFilterOf(c)));
auditRoutes.get('/export', (c) => exportHandler(c, auditFilterOf(c)));
auditRoutes.get('/backlog', async (c) => c.json(await auditBacklog(c.var.deps.db, enabledSinkNames(c.var.deps.config))));

/** `/api/project/:project_id/audit`: one project's audit trail, for roles with ReadAudit (and admins). */
export const projectAuditRoutes = new Hono<AppEnv>();
projectAuditRoutes.get('/', async (c) => listHandler(c, await projectFilterOf(c)));
projectAuditRoutes.get('/export', async (c) => exportHandler(c, await projectFilterOf(c), c.var.project.id));
