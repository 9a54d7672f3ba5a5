import { declaredBits } from '../domain/roles/role.service.ts';
import { Hono } from 'hono';
import { rm } from 'node:fs/promises';
import { demoRepositoryPath } from '../domain/demo/demo-repository.ts';
import type { AppEnv } from '../http/context.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { projectRowToProject } from '../domain/projects/project.ts';
import { deleteProject, updateProject } from '../domain/projects/project.service.ts';
import { removeProjectFiles } from '../domain/projects/project-files.ts';
import { writeAudit } from '../domain/audit/audit.writer.ts';
import { removeProjectMember } from '../domain/projects/project-members.service.ts';
import { projectInputSchema } from './projects.routes.ts';
import { sendTestAlert } from '../alerts/test-alert.ts';

/** `/api/project/:project_id`: the project itself, the caller's role in it, leaving it. */
export const projectRoutes = new Hono<AppEnv>();

projectRoutes.get('/', (c) => c.json(projectRowToProject(c.var.project)));

projectRoutes.put('/', async (c) => {
  const input = await readJson(c, projectInputSchema);
  if (input.id !== undefined && input.id !== c.var.project.id) throw badRequest('Project ID in body and URL must be the same');
  await c.var.deps.db.transaction().execute((tx) => updateProject(tx, c.var.project, input, c.var.user.id));
  return c.body(null, 204);
});

projectRoutes.delete('/', async (c) => {
  const { db, config } = c.var.deps;
  const project = c.var.project;
  const { repositoryIds } = await db.transaction().execute((tx) => deleteProject(tx, project, c.var.user.id));
  await removeProjectFiles(config.tmp_path, project.id, repositoryIds);
  await rm(demoRepositoryPath(config.tmp_path, project.id), { recursive: true, force: true });
  return c.body(null, 204);
});

/** Clear cache: drops the project's work folder and cached clones; the next run clones afresh. */
projectRoutes.delete('/cache', async (c) => {
  const { db, config } = c.var.deps;
  const repositories = await db.selectFrom('repository').select('id').where('project_id', '=', c.var.project.id).execute();
  await removeProjectFiles(config.tmp_path, c.var.project.id, repositories.map((r) => r.id));
  // files, not rows: there is no transaction to share, so the record follows the removal
  await writeAudit(db, { objectType: 'project', objectId: c.var.project.id, objectName: c.var.project.name, description: 'Cache cleared' });
  return c.body(null, 204);
});

/**
 * Sends a test alert through every enabled alert channel (Semaphore's "Send test notification"):
 * 409 while the project's alerts are off (as Semaphore); 200 with how each channel took it; 400
 * when the server has no channel enabled; 502 when none took it.
 */
projectRoutes.post('/notifications/test', async (c) => {
  if (!c.var.project.alert) throw new ApiError('conflict', 'Alerts are not enabled for the project');
  const channels = await sendTestAlert(c.var.deps, { project: c.var.project, user: c.var.user });
  if (!channels.length) throw badRequest('no alert channel is enabled on this server (email, Telegram, Slack, … in the alert settings)');
  for (const failed of channels.filter((ch) => !ch.ok)) console.warn(`[alerts] project ${c.var.project.id}: test alert through ${failed.name} failed: ${failed.error}`);
  if (!channels.some((ch) => ch.ok)) return c.json({ error: 'no alert channel took the test alert', channels }, 502);
  return c.json({ channels });
});

projectRoutes.get('/role', async (c) => c.json({ role: c.var.role, permissions: await declaredBits(c.var.deps.db, c.var.project.id, c.var.role) }));

projectRoutes.delete('/me', async (c) => {
  const { user, project, role } = c.var;
  if (!role) throw notFound();
  // a non-admin owner leaving could strand the project without anyone able to manage it
  if (role === 'owner' && !user.admin) throw badRequest('an owner cannot leave the project');
  await c.var.deps.db.transaction().execute((tx) => removeProjectMember(tx, project.id, user.id, user.id));
  return c.body(null, 204);
});
