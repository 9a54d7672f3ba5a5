import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { listEvents } from '../domain/events/event.queries.ts';
import { hasPermission, Permission } from '../access/permissions.ts';
import { hiddenTemplates, hiddenTemplatesOfUser } from '../domain/templates/template-visibility.ts';
import { templateScopeOf } from '../auth/template-visibility.ts';

/** How many events the `/events/last` routes return. */
const LAST_EVENTS = 200;

/** `/api/events` and `/api/events/last`: the activity log across the caller's projects. */
export const eventsRoutes = new Hono<AppEnv>();

// events about templates the viewer does not see (by grants) are left out, as the templates are
const everywhere = async (c: Context<AppEnv>) => ({
  viewer: c.var.user, withClient: Boolean(c.var.user.admin), hiddenTemplates: await hiddenTemplatesOfUser(c.var.deps.db, c.var.user),
});
eventsRoutes.get('/', async (c) => c.json(await listEvents(c.var.deps.db, await everywhere(c))));
eventsRoutes.get('/last', async (c) => c.json(await listEvents(c.var.deps.db, await everywhere(c), LAST_EVENTS)));

/** `/api/project/:project_id/events` and `/events/last`: one project's activity log. */
export const projectEventsRoutes = new Hono<AppEnv>();

// the project's audit trail is for those who may update the project: they also see where requests came from
const inProject = async (c: Context<AppEnv>) => ({
  projectId: c.var.project.id, withClient: Boolean(c.var.user.admin) || hasPermission(c.var.permissions, Permission.UpdateProject),
  hiddenTemplates: await hiddenTemplates(c.var.deps.db, c.var.project.id, await templateScopeOf(c)),
});
projectEventsRoutes.get('/', async (c) => c.json(await listEvents(c.var.deps.db, await inProject(c))));
projectEventsRoutes.get('/last', async (c) => c.json(await listEvents(c.var.deps.db, await inProject(c), LAST_EVENTS)));
