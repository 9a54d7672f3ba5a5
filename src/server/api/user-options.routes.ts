import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { readJson } from '../http/validation.ts';
import type { Tx } from '../db/database.ts';
import { isWhereabouts, readUserOptions, saveUserOption, userOptionSchema } from '../domain/users/user-options.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';
import { auditNothingChanged } from '../domain/audit/audit-context.ts';

/**
 * `/api/user/options`: the signed-in user's own options (Semaphore 2.18): GET answers them as
 * `{key: value}`, POST stores one `{key, value}` of the allowed keys; the audit trail records a
 * change of preference, not where a person last was (`isWhereabouts`).
 */
export const userOptionsRoutes = new Hono<AppEnv>();

userOptionsRoutes.get('/', async (c) => c.json(await readUserOptions(c.var.deps.db, c.var.user.id)));

userOptionsRoutes.post('/', async (c) => {
  const option = await readJson(c, userOptionSchema);
  const { db } = c.var.deps;
  const save = (tx: Tx) => saveUserOption(tx, c.var.user.id, option);
  if (isWhereabouts(option.key)) {
    const saved = await db.transaction().execute(save);
    auditNothingChanged();
    return c.json(saved);
  }
  const saved = await withAudit(db, save, (done) => ({ objectType: 'user_option', objectId: c.var.user.id, objectName: done.key }));
  return c.json(saved);
});
