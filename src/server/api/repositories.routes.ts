import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { readListOrder } from '../http/list-order.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl, loadProjectRow } from '../domain/project-resource.ts';
import { repositoryInputSchema, repositoryRowToRepository } from '../domain/repositories/repository.ts';
import { createRepository, deleteRepository, listRepositories, updateRepository } from '../domain/repositories/repository.service.ts';
import { refsHandler } from './resource-refs.route.ts';
import { listRemoteBranches } from '../domain/repositories/remote-branches.ts';

/** `/api/project/:project_id/repositories`. */
export const repositoriesRoutes = new Hono<AppEnv>();

repositoriesRoutes.get('/', async (c) => {
  const rows = await listRepositories(c.var.deps.db, c.var.project.id, readListOrder(c, ['name', 'git_url'], 'name'));
  return c.json(rows.map(repositoryRowToRepository));
});

repositoriesRoutes.post('/', async (c) => {
  const input = await readJson(c, repositoryInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const row = await c.var.deps.db.transaction().execute((tx) => createRepository(tx, actorOf(c), input));
  return c.json(repositoryRowToRepository(row), 201);
});

repositoriesRoutes.get('/:repository_id', async (c) => {
  const row = await loadProjectRow(c.var.deps.db, 'repository', c.var.project.id, idParam(c, 'repository_id'));
  return c.json(repositoryRowToRepository(row));
});

repositoriesRoutes.get('/:repository_id/refs', refsHandler('repository', 'repository_id'));

repositoriesRoutes.put('/:repository_id', async (c) => {
  const id = idParam(c, 'repository_id');
  const input = await readJson(c, repositoryInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  const { db, config } = c.var.deps;
  await db.transaction().execute((tx) => updateRepository(tx, config, actorOf(c), id, input));
  return c.body(null, 204);
});

repositoriesRoutes.delete('/:repository_id', async (c) => {
  const id = idParam(c, 'repository_id');
  const { db, config } = c.var.deps;
  await db.transaction().execute((tx) => deleteRepository(tx, config, actorOf(c), id));
  return c.body(null, 204);
});

/** The remote's branches, for the branch fields of the template form and the run dialog. */
repositoriesRoutes.get('/:repository_id/branches', async (c) => {
  const row = await loadProjectRow(c.var.deps.db, 'repository', c.var.project.id, idParam(c, 'repository_id'));
  return c.json(await listRemoteBranches(c.var.deps, row));
});
