import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { exportProject } from '../domain/backup/backup.export.ts';

/** `GET /api/project/:project_id/backup`: the project as Semaphore backup JSON (reference §9.1). */
export const backupRoutes = new Hono<AppEnv>();

// A read, but it lists every resource of the project: Semaphore asks for the manage-resources bit.
backupRoutes.get('/', async (c) => c.json(await exportProject(c.var.deps.db, c.var.project.id)));
