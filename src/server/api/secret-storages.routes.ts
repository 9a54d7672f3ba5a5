import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { idParam, readJson } from '../http/validation.ts';
import { actorOf } from './route-context.ts';
import { assertBodyMatchesUrl } from '../domain/project-resource.ts';
import { connectionOf, secretStorageInputSchema, storageRowToStorage } from '../domain/secret-storages/secret-storage.ts';
import { createStorage, deleteStorage, findStorage, listStorages, storageRefs, updateStorage } from '../domain/secret-storages/secret-storage.service.ts';
import { StorageError, testConnection } from '../domain/secret-storages/vault-client.ts';

/**
 * `/api/project/:project_id/secret_storages`: external secret storages (HashiCorp Vault, OpenBao,
 * KV version 2). Keys and variable-group secrets may point at `path#field` in one; the value is
 * read when a task starts and never stored. The storage's own credential goes in, never out.
 */
export const secretStoragesRoutes = new Hono<AppEnv>();

secretStoragesRoutes.get('/', async (c) => {
  const rows = await listStorages(c.var.deps.db, c.var.project.id);
  return c.json(rows.map(storageRowToStorage));
});

secretStoragesRoutes.post('/', async (c) => {
  const input = await readJson(c, secretStorageInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id);
  const { db, secrets } = c.var.deps;
  const row = await db.transaction().execute((tx) => createStorage(tx, secrets, actorOf(c), input));
  return c.json(storageRowToStorage(row), 201);
});

secretStoragesRoutes.get('/:storage_id', async (c) => {
  return c.json(storageRowToStorage(await findStorage(c.var.deps.db, c.var.project.id, idParam(c, 'storage_id'))));
});

secretStoragesRoutes.get('/:storage_id/refs', async (c) => {
  const id = idParam(c, 'storage_id');
  await findStorage(c.var.deps.db, c.var.project.id, id);
  return c.json(await storageRefs(c.var.deps.db, c.var.project.id, id));
});

/** Signs in to the storage now (token: looks itself up; JWT auth: asks for its health) and says how it went. */
secretStoragesRoutes.post('/:storage_id/test', async (c) => {
  const row = await findStorage(c.var.deps.db, c.var.project.id, idParam(c, 'storage_id'));
  try {
    await testConnection(connectionOf(c.var.deps.secrets, row));
    return c.json({ ok: true });
  } catch (err) {
    if (!(err instanceof StorageError)) throw err;
    return c.json({ ok: false, error: `${row.name}: ${err.message}` });
  }
});

secretStoragesRoutes.put('/:storage_id', async (c) => {
  const id = idParam(c, 'storage_id');
  const input = await readJson(c, secretStorageInputSchema);
  assertBodyMatchesUrl(input, c.var.project.id, id);
  const { db, secrets } = c.var.deps;
  await db.transaction().execute((tx) => updateStorage(tx, secrets, actorOf(c), id, input));
  return c.body(null, 204);
});

secretStoragesRoutes.delete('/:storage_id', async (c) => {
  const id = idParam(c, 'storage_id');
  await c.var.deps.db.transaction().execute((tx) => deleteStorage(tx, actorOf(c), id));
  return c.body(null, 204);
});
