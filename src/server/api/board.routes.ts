import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../http/context.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { idParam, parseWith, readJson } from '../http/validation.ts';
import { authenticatedCaller } from '../auth/authenticate.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { setAuditActor } from '../domain/audit/audit-context.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import { loadBoard, type BoardScope } from '../domain/board/board.queries.ts';
import { boardQuerySchema, boardTokenCreateSchema } from '../domain/board/board.ts';
import { boardTokenGrant, createBoardToken, deleteBoardToken, listBoardTokens } from '../domain/board/board-token.repository.ts';

/** The projects a user sees: every one for an admin, else those they belong to. */
async function visibleProjectIds(db: Db, user: UserRow): Promise<number[]> {
  if (user.admin) return (await db.selectFrom('project').select('id').execute()).map((p) => p.id);
  return (await db.selectFrom('project_user').select('project_id').where('user_id', '=', user.id).execute()).map((p) => p.project_id);
}

/** A view id must name a view of one of the board's projects. */
async function checkView(db: Db, projectIds: readonly number[], viewId: number | null): Promise<void> {
  if (viewId === null) return;
  const view = projectIds.length
    ? await db.selectFrom('view').select('id').where('id', '=', viewId).where('project_id', 'in', [...projectIds]).executeTakeFirst()
    : undefined;
  if (!view) throw badRequest('view_id: no such view on this board');
}

/**
 * The board scope of a request: a board token's own (`?token=`; then nothing else in the query
 * counts and no session is looked at), else the signed-in caller's choice within what they see.
 */
async function boardScopeOf(c: Context<AppEnv>): Promise<BoardScope> {
  const { db } = c.var.deps;
  const query = parseWith(boardQuerySchema, c.req.query());
  if (query.token !== undefined) {
    const grant = await boardTokenGrant(db, query.token);
    if (!grant) throw unauthorized();
    return { projectIds: grant.projectIds, by: grant.by, viewId: grant.by === 'template' ? grant.viewId : null };
  }
  const caller = await authenticatedCaller(db, c.var.deps.config, { authorization: c.req.header('authorization'), cookie: getCookie(c, SESSION_COOKIE), header: (name) => c.req.header(name) });
  setAuditActor({ userId: caller.user.id, name: caller.user.username, token: caller.tokenPrefix });
  const visible = await visibleProjectIds(db, caller.user);
  const allowed = new Set(visible);
  const projectIds = query.project_ids ? query.project_ids.filter((id) => allowed.has(id)) : visible;
  const by = query.by ?? 'template';
  const viewId = by === 'template' ? query.view_id ?? null : null;
  await checkView(db, projectIds, viewId);
  return { projectIds, by, viewId };
}

/**
 * `GET /api/board`: the wall board's tiles. Open to a signed-in caller (any projects they see)
 * and to a board token (its projects only); the token opens nothing else.
 */
export const boardRoutes = new Hono<AppEnv>();

boardRoutes.get('/', async (c) => {
  const scope = await boardScopeOf(c);
  c.header('cache-control', 'no-store');
  return c.json(await loadBoard(c.var.deps.db, scope));
});

/**
 * `/api/board/tokens`: read-only board tokens. Admins make them for any projects and see and
 * revoke all; a project owner or manager makes them for their own projects and sees and
 * revokes their own.
 */
export const boardTokensRoutes = new Hono<AppEnv>();

boardTokensRoutes.get('/', async (c) => c.json(await listBoardTokens(c.var.deps.db, c.var.user.admin ? null : c.var.user.id)));

boardTokensRoutes.post('/', async (c) => {
  const { db } = c.var.deps;
  const user = c.var.user;
  const input = await readJson(c, boardTokenCreateSchema);
  const projectIds = [...new Set(input.project_ids)];
  const projects = await db.selectFrom('project').select('id').where('id', 'in', projectIds).execute();
  const roles = await db.selectFrom('project_user').select(['project_id', 'role']).where('user_id', '=', user.id).where('project_id', 'in', projectIds).execute();
  const roleOf = new Map(roles.map((r) => [r.project_id, r.role]));
  const known = new Set(projects.map((p) => p.id));
  const missing = projectIds.find((id) => !known.has(id) || (!user.admin && !roleOf.has(id)));
  if (missing !== undefined) throw badRequest(`project_ids: no such project ${missing}`);
  if (!user.admin && projectIds.some((id) => !['owner', 'manager'].includes(roleOf.get(id)!))) throw forbidden();
  const by = input.by ?? 'template';
  const viewId = by === 'template' ? input.view_id ?? null : null;
  await checkView(db, projectIds, viewId);
  const created = await withAudit(db, (tx) => createBoardToken(tx, user.id, { name: input.name ?? '', project_ids: projectIds, by, view_id: viewId }),
    (token) => ({ action: 'token_create', objectType: 'board_token', objectId: token.id, objectName: `${token.prefix} ${token.name}`.trim(), projectId: null }));
  return c.json(created, 201);
});

boardTokensRoutes.delete('/:board_token_id', async (c) => {
  const id = idParam(c, 'board_token_id');
  const user = c.var.user;
  const deleted = await withAudit(c.var.deps.db, (tx) => deleteBoardToken(tx, user.admin ? null : user.id, id),
    (token) => (token ? { action: 'token_delete', objectType: 'board_token', objectId: token.id, objectName: `${token.prefix} ${token.name}`.trim(), projectId: null } : null));
  if (!deleted) throw notFound();
  return c.body(null, 204);
});
