import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { checkLoginAllowed, clearLoginFailures, recordLoginFailure } from '../auth/login-throttle.ts';
import { lockState, openStateAccess, readLatestState, unlockState, writeState, type LockOutcome, type StateAccess } from '../domain/terraform/state-backend.ts';

/**
 * `/api/terraform/:alias`: Terraform's and OpenTofu's `http` backend (no session; basic auth).
 * GET reads the newest state (204 when none), POST `?ID=<lock id>` stores a version, LOCK and
 * UNLOCK take and release the workspace lock; a lock held by someone else answers 423 on LOCK
 * and 409 otherwise, with the holder's lock info as the body, which terraform shows.
 */
export const terraformStateBackendRoutes = new Hono<AppEnv>();

/**
 * Opens the workspace for the request's basic auth. Wrong credentials count as failed sign-ins
 * of the alias from this address, under the same throttle as the sign-in form (429 with
 * Retry-After once they pile up), so the backend is no place to guess passwords.
 */
async function access(c: Context<AppEnv>): Promise<StateAccess> {
  const { db, secrets } = c.var.deps;
  const alias = c.req.param('alias') ?? '';
  const account = `terraform:${alias}`;
  const address = apiClientFacts(c).address;
  await checkLoginAllowed(db, account, address);
  try {
    const granted = await openStateAccess(db, secrets, alias, c.req.header('authorization'));
    await clearLoginFailures(db, account, address);
    return granted;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'forbidden') await recordLoginFailure(db, account, address);
    throw error;
  }
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
