import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toDelivery } from '../integrations/delivery.ts';
import { MAX_DELIVERY_BYTES, readLimitedBody } from '../integrations/read-body.ts';
import { receiveDelivery } from '../integrations/receive-delivery.ts';
import { recordDelivery, resolveAlias } from '../integrations/integration.repository.ts';

/**
 * `/api/integrations/:alias`: the public (no session) endpoint webhooks call.
 * Answers, unlike Semaphore's "always 204":
 * - 404 for an unknown alias (nothing is recorded: there is no integration to record it for);
 * - 413 `{"error": "request body is too large"}` for a body over 1 MB (recorded as a refused
 *   delivery for each addressed integration; over 10 MB the API-wide body limit answers first, unrecorded);
 * - 429 `{"error": ...}` with `Retry-After` when a template's rate limit for triggers refused
 *   the start (a webhook storm is told to slow down; the delivery is recorded as refused);
 * - 202 `{"task_id": n}` when a delivery identical to one that started task n came inside the
 *   integration's `once_within` window: it starts nothing (the sender has passed the
 *   integration's authentication and matchers to get here);
 * - 204 otherwise, whether or not a task started: the outcome is in the deliveries list
 *   (`GET /api/project/{id}/integrations/{iid}/deliveries`), not in the answer, so callers
 *   cannot probe secrets or matchers;
 * - OPTIONS gets 204 with `Allow` and is not treated as a delivery (CORS preflights must not start tasks);
 * - GET and HEAD get 405 and are not recorded: only a POST delivers, so a link checker, a
 *   preview bot or a crafted `<img>` starts nothing.
 */
export const integrationWebhookRoutes = new Hono<AppEnv>();

const ALLOW = { Allow: 'POST, OPTIONS' };

integrationWebhookRoutes.options('/:alias', (c) => c.body(null, 204, ALLOW));

// Hono hands HEAD to the GET handler.
integrationWebhookRoutes.get('/:alias', (c) => c.json({ error: 'a webhook is delivered with POST' }, 405, ALLOW));

integrationWebhookRoutes.post('/:alias', async (c) => {
  const { deps } = c.var;
  const integrations = await resolveAlias(deps.db, deps.config, c.req.param('alias'));
  if (!integrations) throw notFound();
  const body = await readLimitedBody(c.req.raw, MAX_DELIVERY_BYTES);
  if (!body) {
    const reason = `request body larger than ${MAX_DELIVERY_BYTES} bytes`;
    for (const integration of integrations) await recordDelivery(deps.db, integration, { matched: false, reason }, 'webhook_fail');
    throw new ApiError('too_large', 'request body is too large');
  }
  const { limited, merged } = await receiveDelivery(deps, integrations, toDelivery(c.req.raw.headers, body));
  if (limited) throw limited;
  if (merged.length) return c.json({ task_id: merged[0] }, 202);
  return c.body(null, 204);
});
