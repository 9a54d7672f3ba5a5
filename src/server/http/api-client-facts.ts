import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { AppEnv } from './context.ts';
import { requestClientFacts, type ClientFacts } from './client-facts.ts';

/**
 * The client behind an API request. Over the network: the socket, and forwarded headers only
 * from trusted proxies. In-process calls (the console rendering a page) have no socket; their
 * `X-Real-IP` / `X-Forwarded-Proto` were set by the console from what the host server itself
 * worked out, never copied from the browser.
 * @example const { address, https } = apiClientFacts(c);
 */
export function apiClientFacts(c: Context<AppEnv>): ClientFacts {
  const { config } = c.var.deps;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) return requestClientFacts(incoming, config);
  return {
    address: c.req.header('x-real-ip') || 'local',
    https: c.req.header('x-forwarded-proto') === 'https' || config.web_host.startsWith('https:'),
  };
}
