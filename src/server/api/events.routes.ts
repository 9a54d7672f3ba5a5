import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { listEvents } from '../domain/events/event.queries.ts';
import { hasPermission, Permission } from '../access/permissions.ts';

/** How many events the `/events/last` routes return. */
const LAST_EVENTS = 200;

/** `/api/events` and `/api/events/last`: the activity log across the caller's projects. */
export const eventsRoutes = new Hono<AppEnv>();

const everywhere = (c: Context<AppEnv>) => ({ viewer: c.var.user, withClient: Boolean(c.var.user.admin) });
eventsRoutes.get('/', async (c) => c.json(await listEvents(c.var.deps.db, everywhere(c))));
eventsRoutes.get('/last', async (c) => c.json(await listEvents(c.var.deps.db, everywhere(c), LAST_EVENTS)));

/** `/api/project/:project_id/events` and `/events/last`: one project's activity log. */
export const projectEventsRoutes = new Hono<AppEnv>();

// the project's audit trail is for those who may update the project: they also see where requests came from
const inProject = (c: Context<AppEnv>) => ({ projectId: c.var.project.id, withClient: Boolean(c.var.user.admin) || hasPermission(c.var.permissions, Permission.UpdateProject) });
projectEventsRoutes.get('/', async (c) => c.json(await listEvents(c.var.deps.db, inProject(c))));
projectEventsRoutes.get('/last', async (c) => c.json(await listEvents(c.var.deps.db, inProject(c), LAST_EVENTS)));
