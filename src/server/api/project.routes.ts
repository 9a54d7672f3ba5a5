import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { projectRowToProject } from '../domain/projects/project.ts';

/** `/api/project/:project_id`: the project itself and the caller's role in it. */
export const projectRoutes = new Hono<AppEnv>();

projectRoutes.get('/', (c) => c.json(projectRowToProject(c.var.project)));

projectRoutes.get('/role', (c) => c.json({ role: c.var.role, permissions: c.var.permissions }));
