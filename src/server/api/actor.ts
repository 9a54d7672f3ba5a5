import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { Actor } from '../domain/project-resource.ts';

/** The project and user a project-scoped change is made by, for events. */
export function actorOf(c: Context<AppEnv>): Actor {
  return { projectId: c.var.project.id, userId: c.var.user.id };
}

/** `?limit=` clamped to 1..max; absent or invalid gives `fallback`. */
export function limitQuery(c: Context, max: number, fallback = max): number {
  const raw = c.req.query('limit');
  if (!raw || !/^\d+$/.test(raw)) return fallback;
  return Math.min(Math.max(Number(raw), 1), max);
}
