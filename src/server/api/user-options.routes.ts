import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { readJson } from '../http/validation.ts';
import { readUserOptions, saveUserOption, userOptionSchema } from '../domain/users/user-options.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';

/**
 * `/api/user/options`: the signed-in user's own options (Semaphore 2.18): GET answers them as
 * `{key: value}`, POST stores one `{key, value}` of the allowed keys.
 */
export const userOptionsRoutes = new Hono<AppEnv>();

userOptionsRoutes.get('/', async (c) => c.json(await readUserOptions(c.var.deps.db, c.var.user.id)));

userOptionsRoutes.post('/', async (c) => {
  const option = await readJson(c, userOptionSchema);
  const saved = await withAudit(c.var.deps.db, (tx) => saveUserOption(tx, c.var.user.id, option),
    (done) => ({ objectType: 'user_option', objectId: c.var.user.id, objectName: done.key }));
  return c.json(saved);
});
