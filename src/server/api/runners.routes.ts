import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { forbidden } from '../http/errors.ts';
import { idParam, readJson } from '../http/validation.ts';
import { runnerActiveSchema, runnerInputSchema, runnerRowToRunner } from '../domain/runners/runner.ts';
import {
  createRunner, deleteRunner, findRunner, listRunners, newRegistrationToken, requestCleaning, setRunnerActive, updateRunner, type RunnerScope,
} from '../domain/runners/runner.service.ts';
import { limitQuery } from './route-context.ts';
import { withAudit, type AuditEntry } from '../domain/audit/audit.writer.ts';
import type { RunnerRow } from '../db/schema.ts';

/**
 * The runner routes of one scope: `/api/runners` (global, admins) and `/api/project/{id}/runners`
 * (the project's; members read, ManageResources writes). Tokens and private keys appear only in
 * the answer to POST; lists answer `?offset=&limit=` pages with `X-Total-Count`.
 */
function runnerRoutes(scopeOf: (c: Context<AppEnv>) => RunnerScope, read: MiddlewareHandler<AppEnv>, write: MiddlewareHandler<AppEnv>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const one = (c: Context<AppEnv>) => findRunner(c.var.deps.db, scopeOf(c), idParam(c, 'runner_id'));
  const about = (row: Pick<RunnerRow, 'id' | 'name'>): AuditEntry => ({ objectType: 'runner', objectId: row.id, objectName: row.name });

  routes.get('/', read, async (c) => {
    const paged = c.req.query('limit') !== undefined || c.req.query('offset') !== undefined;
    const offset = Math.min(Number(/^\d+$/.test(c.req.query('offset') ?? '') ? c.req.query('offset') : 0), 2_147_483_647);
    const { rows, total } = await listRunners(c.var.deps.db, scopeOf(c), paged ? { offset, limit: limitQuery(c, 100, 20) } : undefined);
    c.header('X-Total-Count', String(total));
    return c.json(rows.map(runnerRowToRunner));
  });

  routes.post('/', write, async (c) => {
    const input = await readJson(c, runnerInputSchema);
    const created = await withAudit(c.var.deps.db, (tx) => createRunner(tx, scopeOf(c), input), (made) => about(made.row));
    return c.json({
      ...runnerRowToRunner(created.row),
      ...(created.token ? { token: created.token } : {}),
      ...(created.private_key ? { private_key: created.private_key } : {}),
    }, 201);
  });

  routes.get('/:runner_id', read, async (c) => c.json(runnerRowToRunner(await one(c))));

  routes.put('/:runner_id', write, async (c) => {
    const row = await one(c);
    const input = await readJson(c, runnerInputSchema);
    await withAudit(c.var.deps.db, (tx) => updateRunner(tx, row, input), () => about({ id: row.id, name: input.name ?? row.name }));
    return c.body(null, 204);
  });

  routes.delete('/:runner_id', write, async (c) => {
    const row = await one(c);
    await withAudit(c.var.deps.db, (tx) => deleteRunner(tx, row), () => about(row));
    return c.body(null, 204);
  });

  routes.post('/:runner_id/active', write, async (c) => {
    const row = await one(c);
    const { active } = await readJson(c, runnerActiveSchema);
    await withAudit(c.var.deps.db, (tx) => setRunnerActive(tx, row, active), () => about(row));
    return c.body(null, 204);
  });

  routes.post('/:runner_id/registration-token', write, async (c) => {
    const row = await one(c);
    const token = await withAudit(c.var.deps.db, (tx) => newRegistrationToken(tx, row), () => about(row));
    return c.json({ registration_token: token, runner_id: row.id, project_id: row.project_id });
  });

  routes.delete('/:runner_id/cache', write, async (c) => {
    const row = await one(c);
    await withAudit(c.var.deps.db, (tx) => requestCleaning(tx, row), () => about(row));
    return c.body(null, 204);
  });
  return routes;
}

const adminOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user.admin) throw forbidden();
  await next();
};
const anyMember: MiddlewareHandler<AppEnv> = async (_c, next) => next();

/** `/api/runners` (system admins). */
export const globalRunnersRoutes = runnerRoutes(() => null, adminOnly, adminOnly);

/** `/api/project/:project_id/runners`. */
export const projectRunnersRoutes = runnerRoutes((c) => c.var.project.id, anyMember, anyMember);
// (its writes are guarded by the project route table, access/route-permissions.ts)
