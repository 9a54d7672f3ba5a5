import { z } from 'zod';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import type { Template } from './template.ts';
import { scopeIds, type TemplateScope } from './template-visibility.ts';
import { presentTemplates } from './template.service.ts';

const SORT_COLUMNS = ['name', 'playbook', 'app', 'type', 'id'] as const;
type SortColumn = (typeof SORT_COLUMNS)[number];

/**
 * `GET …/templates` with a search, a page size or a cursor (our addition): a project with
 * thousands of templates is read a page at a time, in the same order as the whole list.
 */
export const templatePageQuerySchema = z.object({
  q: z.string().max(200).optional().meta({ description: 'words found in the name, description or playbook (case-insensitive)' }),
  app: z.string().max(64).optional(),
  view_id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  sort: z.enum(SORT_COLUMNS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  after: z.string().max(600).optional().meta({ description: 'X-Next-Cursor of the previous page' }),
});
export type TemplatePageQuery = z.infer<typeof templatePageQuerySchema>;

export const TEMPLATE_PAGE_PARAMS = ['q', 'limit', 'after'] as const;

export interface TemplatePage { templates: Template[]; nextCursor: string | null }

/** One page of a project's templates (those in `scope`) in `sort` order (id breaks ties); `nextCursor` reads the next. */
export async function pageTemplates(db: Db | Tx, projectId: number, query: TemplatePageQuery, defaultLimit: number, scope: TemplateScope = null): Promise<TemplatePage> {
  const column: SortColumn = query.sort ?? 'name';
  const desc = query.order === 'desc';
  const limit = query.limit ?? defaultLimit;
  let q = db.selectFrom('template').selectAll().where('project_id', '=', projectId);
  if (scope) q = q.where('id', 'in', scopeIds(scope));
  if (query.app) q = q.where('app', '=', query.app);
  if (query.view_id !== undefined) q = q.where('view_id', '=', query.view_id);
  for (const word of (query.q ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean)) {
    const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or(['name', 'description', 'playbook'].map((col) => eb(sql`lower(${sql.ref(col)})`, 'like', sql`${pattern} escape '\\'`))));
  }
  if (query.after) {
    const [value, id] = readCursor(query.after, column);
    const op = desc ? '<' : '>';
    q = q.where((eb) => eb.or([eb(column, op, value as never), eb.and([eb(column, '=', value as never), eb('id', '>', id)])]));
  }
  const rows = await q.orderBy(column, desc ? 'desc' : 'asc').orderBy('id').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? writeCursor(last[column], last.id) : null;
  return { templates: await presentTemplates(db, page), nextCursor };
}

function writeCursor(value: unknown, id: number): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

function readCursor(text: string, column: SortColumn): [string | number, number] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const ok = Array.isArray(parsed) && parsed.length === 2 && Number.isInteger(parsed[1])
    && (column === 'id' ? Number.isInteger(parsed[0]) : typeof parsed[0] === 'string');
  if (!ok) throw badRequest('after: not a cursor this list gave; start again without it');
  return parsed as [string | number, number];
}
