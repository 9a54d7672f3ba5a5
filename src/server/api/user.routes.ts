import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { mayCreateProject, userRowToUser } from '../domain/users/user.ts';
import { findTotp, totpSummary } from '../auth/totp.ts';

/** `/api/user`: the signed-in user. */
export const userRoutes = new Hono<AppEnv>();

userRoutes.get('/', async (c) => {
  const { config, db } = c.var.deps;
  const user = c.var.user;
  const totp = await findTotp(db, user.id);
  return c.json({
    ...userRowToUser(user),
    ...(totp ? { totp: totpSummary(totp) } : {}),
    can_create_project: mayCreateProject(user, config),
    has_active_subscription: false,
  });
});
