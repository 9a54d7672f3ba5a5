import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { userRowToUser } from '../domain/users/user.ts';

/** `/api/user`: the signed-in user. */
export const userRoutes = new Hono<AppEnv>();

userRoutes.get('/', (c) => {
  const { config } = c.var.deps;
  const user = c.var.user;
  return c.json({
    ...userRowToUser(user),
    can_create_project: Boolean(user.admin) || config.non_admin_can_create_project,
    has_active_subscription: false,
  });
});
