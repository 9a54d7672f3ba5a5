import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { AppEnv } from './context.ts';
import { requestClientFacts, type ClientFacts } from '../lib/client-facts.ts';

/**
 * The client behind an API request. Over the network: the socket, and forwarded headers only
 * from trusted proxies. In-process calls (the console rendering a page) have no socket; their
 * `X-Real-IP` / `X-Forwarded-Proto` were set by the console from what the host server itself
 * worked out, never copied from the browser.
 * @example const { address, https } = apiClientFacts(c);
 */
export function apiClientFacts(c: Context<AppEnv>): ClientFacts {
  const { config } = c.var.deps;
  const incoming = incomingOf(c);
  if (incoming) return requestClientFacts(incoming, config);
  return {
    address: inProcessAddress(c),
    https: c.req.header('x-forwarded-proto') === 'https' || config.web_host.startsWith('https:'),
  };
}

/**
 * Only the address of apiClientFacts (what the audit trail records): an in-process call reads
 * one header instead of two.
 */
export function apiClientAddress(c: Context<AppEnv>): string {
  const incoming = incomingOf(c);
  return incoming ? requestClientFacts(incoming, c.var.deps.config).address : inProcessAddress(c);
}

function incomingOf(c: Context<AppEnv>): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

function inProcessAddress(c: Context<AppEnv>): string {
  return c.req.raw.headers.get('x-real-ip') || 'local';
}
