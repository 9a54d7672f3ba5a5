import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';

/**
 * `GET /api/project/:project_id/secret_storages`: external secret storages (Vault and the like)
 * are not built, so the list is empty and `premium_features.secret_storages` is false. Semaphore's
 * key and variable-group forms load this list before they open, so it answers rather than 404s.
 */
export const secretStoragesRoutes = new Hono<AppEnv>();

secretStoragesRoutes.get('/', (c) => c.json([]));
