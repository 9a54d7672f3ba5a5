import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { unauthorized } from '../http/errors.ts';
import { fields, readJson } from '../http/validation.ts';
import { createProject, listProjectsFor } from '../domain/projects/project.service.ts';
import { projectRowToProject } from '../domain/projects/project.ts';
import { mayCreateProject } from '../domain/users/user.ts';
import { addDemoResources } from '../domain/demo/demo-project.service.ts';
import { executorImageField } from '../domain/templates/executor-fields.ts';

export const projectInputSchema = z.strictObject({
  id: z.number().int().optional(),
  name: fields.name,
  alert: z.boolean().optional(),
  alert_chat: fields.text(255).nullable().optional(),
  max_parallel_tasks: fields.count.optional(),
  task_retention_days: fields.count.optional(),
  task_retention_count: fields.count.optional(),
  output_retention_days: fields.count.optional(),
  executor_image: executorImageField.meta({ description: "Signalbox: the container image of the project's templates that name none (empty: the server's SEMAPHORE_EXECUTOR_IMAGE, else on the host)" }),
  type: z.enum(['']).optional(),
  created: z.string().optional(),
  demo: z.boolean().optional(),
});

/** `/api/projects`: list and create. */
export const projectsRoutes = new Hono<AppEnv>();

projectsRoutes.get('/', async (c) => {
  const rows = await listProjectsFor(c.var.deps.db, c.var.user);
  return c.json(rows.map(projectRowToProject));
});

projectsRoutes.post('/', async (c) => {
  const { db, config } = c.var.deps;
  const user = c.var.user;
  if (!mayCreateProject(user, config)) throw unauthorized();
  const input = await readJson(c, projectInputSchema);
  const project = await db.transaction().execute(async (tx) => {
    const created = await createProject(tx, input, user.id);
    if (input.demo) await addDemoResources(tx, created, c.var.deps);
    return created;
  });
  return c.json(projectRowToProject(project), 201);
});
