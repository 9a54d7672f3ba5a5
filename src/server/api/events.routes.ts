import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { listEvents } from '../domain/events/event.queries.ts';

/** How many events the `/events/last` routes return. */
const LAST_EVENTS = 200;

/** `/api/events` and `/api/events/last`: the activity log across the caller's projects. */
export const eventsRoutes = new Hono<AppEnv>();

eventsRoutes.get('/', async (c) => c.json(await listEvents(c.var.deps.db, { viewer: c.var.user })));
eventsRoutes.get('/last', async (c) => c.json(await listEvents(c.var.deps.db, { viewer: c.var.user }, LAST_EVENTS)));

/** `/api/project/:project_id/events` and `/events/last`: one project's activity log. */
export const projectEventsRoutes = new Hono<AppEnv>();

projectEventsRoutes.get('/', async (c) => c.json(await listEvents(c.var.deps.db, { projectId: c.var.project.id })));
projectEventsRoutes.get('/last', async (c) => c.json(await listEvents(c.var.deps.db, { projectId: c.var.project.id }, LAST_EVENTS)));
