import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { unauthorized } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { backupOutlineSchema } from '../domain/backup/backup.schema.ts';
import { parseBackupItems } from '../domain/backup/backup.parse.ts';
import { timeSlicer } from '../lib/time-slice.ts';
import { reloadSchedules } from '../scheduler/scheduler.ts';
import { restoreProject } from '../domain/backup/backup.restore.ts';
import { projectRowToProject } from '../domain/projects/project.ts';
import { mayCreateProject } from '../domain/users/user.ts';

/**
 * `POST /api/projects/restore`: a new project from a backup (reference §9.2). The console puts
 * the name the user typed into `meta.name`. Answers 200 with the project plus `empty_keys`.
 * Sections have limits (BACKUP_SECTION_LIMITS), checked before any item is; items are checked
 * and written in slices that let other requests run in between.
 */
export const restoreRoutes = new Hono<AppEnv>();

restoreRoutes.post('/', async (c) => {
  const { db, config } = c.var.deps;
  const deps = c.var.deps;
  const user = c.var.user;
  if (!mayCreateProject(user, config)) throw unauthorized();
  const outline = await readJson(c, backupOutlineSchema);
  const backup = await parseBackupItems(outline, timeSlicer());
  const { project, emptyKeys } = await db.transaction().execute((tx) => restoreProject(tx, deps, backup, user.id));
  await reloadSchedules();
  return c.json({ ...projectRowToProject(project), empty_keys: emptyKeys }, 200);
});
