import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { createApiToken, deleteApiToken, listApiTokens } from '../domain/tokens/api-token.repository.ts';

export const tokenCreateSchema = z.strictObject({
  name: z.string().trim().max(255, 'at most 255 characters').optional(),
  expires_at: z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).nullable().optional(),
});

/** `/api/user/tokens`: the caller's bearer API tokens. */
export const tokensRoutes = new Hono<AppEnv>();

tokensRoutes.get('/', async (c) => c.json(await listApiTokens(c.var.deps.db, c.var.user.id)));

tokensRoutes.post('/', async (c) => {
  const input = await readJson(c, tokenCreateSchema);
  if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) throw badRequest('expires_at: must be in the future');
  return c.json(await createApiToken(c.var.deps.db, c.var.user.id, input), 201);
});

tokensRoutes.delete('/:token_id', async (c) => {
  if (!(await deleteApiToken(c.var.deps.db, c.var.user.id, c.req.param('token_id')))) throw notFound();
  return c.body(null, 204);
});
