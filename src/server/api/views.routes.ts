import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { viewInputSchema, viewPositionsSchema, viewRowToView } from '../domain/views/view.ts';
import { createView, deleteView, findView, listViews, setViewPositions, updateView } from '../domain/views/view.service.ts';
import { listTemplates } from '../domain/templates/template.service.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';
import { readGrants, templateGrantsInputSchema, writeViewGrants } from '../domain/templates/template-grants.ts';
import { actorOf } from './route-context.ts';

/** `/api/project/:project_id/views`: template list tabs (reference §3.10). */
export const viewsRoutes = new Hono<AppEnv>();

viewsRoutes.get('/', async (c) => c.json((await listViews(c.var.deps.db, c.var.project.id)).map(viewRowToView)));

viewsRoutes.post('/', async (c) => {
  const input = await readJson(c, viewInputSchema);
  const row = await c.var.deps.db.transaction().execute((tx) => createView(tx, actorOf(c), input));
  return c.json(viewRowToView(row), 201);
});

viewsRoutes.post('/positions', async (c) => {
  const positions = await readJson(c, viewPositionsSchema);
  await c.var.deps.db.transaction().execute((tx) => setViewPositions(tx, actorOf(c), positions));
  return c.body(null, 204);
});

viewsRoutes.get('/:view_id', async (c) => c.json(viewRowToView(await findView(c.var.deps.db, c.var.project.id, idParam(c, 'view_id')))));

viewsRoutes.get('/:view_id/templates', async (c) => {
  const view = await findView(c.var.deps.db, c.var.project.id, idParam(c, 'view_id'));
  return c.json(await listTemplates(c.var.deps.db, c.var.project.id, { viewId: view.id, scope: await templateScopeOf(c) }));
});

/** Who may see or start the view's templates besides owners and admins (issue 52 item 3): `{grants}`, as a template's. */
viewsRoutes.get('/:view_id/grants', async (c) => {
  const view = await findView(c.var.deps.db, c.var.project.id, idParam(c, 'view_id'));
  return c.json({ grants: await readGrants(c.var.deps.db, 'view', view.id) });
});

/** Replaces the view's grants (the whole list); a bad entry writes nothing. */
viewsRoutes.put('/:view_id/grants', async (c) => {
  const id = idParam(c, 'view_id');
  const input = await readJson(c, templateGrantsInputSchema);
  const grants = await c.var.deps.db.transaction().execute(async (tx) => writeViewGrants(tx, actorOf(c), await findView(tx, c.var.project.id, id), input));
  return c.json({ grants });
});

viewsRoutes.put('/:view_id', async (c) => {
  const id = idParam(c, 'view_id');
  const input = await readJson(c, viewInputSchema);
  await c.var.deps.db.transaction().execute(async (tx) => updateView(tx, actorOf(c), await findView(tx, c.var.project.id, id), input));
  return c.body(null, 204);
});

viewsRoutes.delete('/:view_id', async (c) => {
  const id = idParam(c, 'view_id');
  await c.var.deps.db.transaction().execute(async (tx) => deleteView(tx, actorOf(c), await findView(tx, c.var.project.id, id)));
  return c.body(null, 204);
});
