import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { fields, readJson } from '../http/validation.ts';
import { findApp, isBuiltInApp, listApps } from '../domain/apps/app-catalog.ts';
import { deleteAppSettings, saveAppSettings } from '../domain/apps/app-settings.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';

const aboutApp = (id: string) => ({ objectType: 'app', objectName: id });

const APP_ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export const appInputSchema = z.strictObject({
  id: z.string().max(64).optional(),
  active: z.boolean().optional(),
  priority: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  title: fields.text(255).optional(),
  icon: fields.text(255).optional(),
  color: fields.text(64).optional(),
  dark_color: fields.text(64).optional(),
  path: fields.text(4096).optional(),
  args: z.array(fields.text(4096)).max(100, 'at most 100 arguments').optional(),
});

/** `/api/apps`: the list for every signed-in user; reading one and changing apps is for admins. */
export const appsRoutes = new Hono<AppEnv>();

function adminAppId(c: Context<AppEnv>): string {
  if (!c.var.user.admin) throw forbidden();
  const id = c.req.param('app_id') ?? '';
  if (!APP_ID.test(id)) throw badRequest('id: required; use lowercase letters, digits, "-" or "_" (at most 32)');
  return id;
}

appsRoutes.get('/', async (c) => c.json(await listApps(c.var.deps.db, c.var.deps.config)));

appsRoutes.get('/:app_id', async (c) => {
  const id = adminAppId(c);
  const app = await findApp(c.var.deps.db, c.var.deps.config, id);
  if (!app) throw notFound();
  return c.json(app);
});

async function saveApp(c: Context<AppEnv>) {
  const id = adminAppId(c);
  const { id: bodyId, ...settings } = await readJson(c, appInputSchema);
  if (bodyId !== undefined && bodyId !== id) throw badRequest('App ID in body and URL must be the same');
  await withAudit(c.var.deps.db, (tx) => saveAppSettings(tx, id, settings), () => aboutApp(id));
  return c.body(null, 204);
}
appsRoutes.post('/:app_id', saveApp);
appsRoutes.put('/:app_id', saveApp);

appsRoutes.post('/:app_id/active', async (c) => {
  const id = adminAppId(c);
  const { active } = await readJson(c, z.strictObject({ active: z.boolean() }));
  if (!(await findApp(c.var.deps.db, c.var.deps.config, id))) throw notFound();
  await withAudit(c.var.deps.db, (tx) => saveAppSettings(tx, id, { active }), () => aboutApp(id));
  return c.body(null, 204);
});

appsRoutes.delete('/:app_id', async (c) => {
  const id = adminAppId(c);
  if (isBuiltInApp(id)) throw badRequest('Built-in apps cannot be deleted');
  const removed = await withAudit(c.var.deps.db, (tx) => deleteAppSettings(tx, id), (count) => (count ? aboutApp(id) : null));
  if (!removed) throw notFound();
  return c.body(null, 204);
});
