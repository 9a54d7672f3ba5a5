import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { createApiToken, deleteApiToken, listApiTokens, TOKEN_ID_LENGTH } from '../domain/tokens/api-token.repository.ts';
import { withAudit } from '../domain/audit/audit.writer.ts';

export const tokenCreateSchema = z.strictObject({
  name: z.string().trim().max(255, 'at most 255 characters').optional(),
  expires_at: z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).nullable().optional(),
  /** lets assistants on the MCP server start, stop and approve; the REST API ignores it */
  allow_write_operations: z.boolean().optional(),
});

/** `/api/user/tokens`: the caller's bearer API tokens. */
export const tokensRoutes = new Hono<AppEnv>();

tokensRoutes.get('/', async (c) => c.json(await listApiTokens(c.var.deps.db, c.var.user.id)));

tokensRoutes.post('/', async (c) => {
  const input = await readJson(c, tokenCreateSchema);
  if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) throw badRequest('expires_at: must be in the future');
  const token = await withAudit(c.var.deps.db, (tx) => createApiToken(tx, c.var.user.id, input),
    (created) => ({ objectType: 'token', objectName: `${created.id.slice(0, TOKEN_ID_LENGTH)} ${created.name}`.trim() }));
  return c.json(token, 201);
});

tokensRoutes.delete('/:token_id', async (c) => {
  const id = c.req.param('token_id').toLowerCase();
  const deleted = await withAudit(c.var.deps.db, (tx) => deleteApiToken(tx, c.var.user.id, id),
    (done) => (done ? { objectType: 'token', objectName: id.slice(0, TOKEN_ID_LENGTH) } : null));
  if (!deleted) throw notFound();
  return c.body(null, 204);
});
