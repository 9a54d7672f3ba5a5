import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { lockState, openStateAccess, readLatestState, unlockState, writeState, type LockOutcome, type StateAccess } from '../domain/terraform/state-backend.ts';

/**
 * `/api/terraform/:alias`: Terraform's and OpenTofu's `http` backend (no session; basic auth).
 * GET reads the newest state (204 when none), POST `?ID=<lock id>` stores a version, LOCK and
 * UNLOCK take and release the workspace lock; a lock held by someone else answers 423 on LOCK
 * and 409 otherwise, with the holder's lock info as the body, which terraform shows.
 */
export const terraformStateBackendRoutes = new Hono<AppEnv>();

function access(c: Context<AppEnv>): Promise<StateAccess> {
  return openStateAccess(c.var.deps.db, c.var.deps.secrets, c.req.param('alias') ?? '', c.req.header('authorization'));
}

function answer(c: Context<AppEnv>, outcome: LockOutcome, conflictStatus: 409 | 423): Response {
  if (outcome.ok) return c.body(null, 200);
  return c.body(outcome.holder, conflictStatus, { 'content-type': 'application/json' });
}

terraformStateBackendRoutes.get('/:alias', async (c) => {
  const state = await readLatestState(c.var.deps.db, await access(c));
  if (state === null) return c.body(null, 204);
  return c.body(state, 200, { 'content-type': 'application/json' });
});

terraformStateBackendRoutes.post('/:alias', async (c) => {
  const granted = await access(c);
  return answer(c, await writeState(c.var.deps.db, granted, c.req.query('ID'), await c.req.text()), 409);
});

terraformStateBackendRoutes.on('LOCK', '/:alias', async (c) => {
  const granted = await access(c);
  return answer(c, await lockState(c.var.deps.db, granted, await c.req.text()), 423);
});

terraformStateBackendRoutes.on('UNLOCK', '/:alias', async (c) => {
  const granted = await access(c);
  return answer(c, await unlockState(c.var.deps.db, granted, await c.req.text()), 409);
});
