import type { Db } from '../../db/database.ts';
import type { AuditRow } from '../../db/schema.ts';

type Linkable = 'access_key' | 'repository' | 'inventory' | 'environment' | 'template' | 'schedule' | 'integration' | 'task' | 'project' | 'user';

/** Where each object type lives in the console, and the table that says whether it still exists. */
const LINKS: Record<string, { table: Linkable; url: (projectId: number | null, id: number) => string | null }> = {
  key: { table: 'access_key', url: (p) => (p ? `/project/${p}/keys` : null) },
  repository: { table: 'repository', url: (p) => (p ? `/project/${p}/repositories` : null) },
  inventory: { table: 'inventory', url: (p) => (p ? `/project/${p}/inventory` : null) },
  environment: { table: 'environment', url: (p) => (p ? `/project/${p}/environment` : null) },
  template: { table: 'template', url: (p, id) => (p ? `/project/${p}/templates/${id}` : null) },
  schedule: { table: 'schedule', url: (p) => (p ? `/project/${p}/schedules` : null) },
  integration: { table: 'integration', url: (p, id) => (p ? `/project/${p}/integrations/${id}` : null) },
  task: { table: 'task', url: (p, id) => (p ? `/project/${p}/history?t=${id}` : null) },
  project: { table: 'project', url: (_p, id) => `/project/${id}` },
  user: { table: 'user', url: (_p, id) => `/users/${id}/edit` },
};

export type AuditRowWithLink = AuditRow & { object_url: string | null };

/**
 * Adds `object_url`, the console page of each row's object while it still exists (one look-up
 * per object type for the whole page).
 */
export async function withObjectLinks(db: Db, rows: AuditRow[]): Promise<AuditRowWithLink[]> {
  const existing = new Map<string, Set<number>>();
  for (const [type, link] of Object.entries(LINKS)) {
    const ids = [...new Set(rows.filter((r) => r.object_type === type && r.object_id !== null).map((r) => r.object_id!))];
    if (!ids.length) continue;
    const found = await (db as Db).selectFrom(link.table as 'project').select('id').where('id', 'in', ids).execute();
    existing.set(type, new Set(found.map((f) => f.id)));
  }
  return rows.map((row) => {
    const link = LINKS[row.object_type];
    const alive = row.object_id !== null && existing.get(row.object_type)?.has(row.object_id);
    return { ...row, object_url: link && alive ? link.url(row.project_id, row.object_id!) : null };
  });
}
