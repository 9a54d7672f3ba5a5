import type { Handler } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AppEnv } from '../http/context.ts';
import { ApiError, unauthorized } from '../http/errors.ts';
import { apiBodyBudget } from '../http/body-limits.ts';
import { jsonValuesOver } from '../http/json-budget.ts';
import { authenticatedCaller } from '../auth/authenticate.ts';
import { auditNothingChanged, setAuditActor } from '../domain/audit/audit-context.ts';
import { tokenAllowsWrites } from '../domain/tokens/api-token.repository.ts';
import { TokenBuckets } from '../lib/token-buckets.ts';
import { ApiCaller } from './api-caller.ts';
import { buildMcpServer } from './mcp-server.ts';

/** Write calls one token may make at once, and how many more it earns per second after that. */
export const MCP_WRITE_BURST = 10;
export const MCP_WRITES_PER_SECOND = 0.2;

/** The app's own fetch, handed down by app.ts (the MCP server sits above the routes it calls). */
export type AppFetch = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * `POST /api/mcp`: the Model Context Protocol over Streamable HTTP, stateless (each request
 * brings its bearer token and is answered as JSON; no session outlives it). Only an API token
 * opens it — a browser's cookie does not, so no page can drive it. GET and DELETE (the stream
 * and the session end of stateful servers) answer 405, as the protocol allows.
 */
export function mcpEndpoint(appFetch: AppFetch): Handler<AppEnv> {
  const writeThrottle = new TokenBuckets(MCP_WRITE_BURST, MCP_WRITES_PER_SECOND);
  return async function serveMcp(c) {
    if (c.req.method !== 'POST') return c.json({ error: 'the MCP server answers POST only (stateless Streamable HTTP)' }, 405, { Allow: 'POST' });
    const authorization = c.req.header('authorization') ?? '';
    if (!/^bearer\s+\S/i.test(authorization)) throw unauthorized();
    const { db } = c.var.deps;
    const caller = await authenticatedCaller(db, c.var.deps.config, { authorization, cookie: undefined, header: () => undefined });
    setAuditActor({ userId: caller.user.id, name: caller.user.username, token: caller.tokenPrefix });
    // the request itself changes nothing: each tool call writes its own audit row
    auditNothingChanged();
    const headers: Record<string, string> = { authorization, 'user-agent': c.req.header('user-agent') ?? 'mcp' };
    const api = new ApiCaller((request) => Promise.resolve(appFetch(request, c.env)), new URL(c.req.url).origin, headers);
    const server = buildMcpServer({ db, api, tokenHash: caller.tokenHash!, writesAllowed: await tokenAllowsWrites(db, caller.tokenHash!), writeThrottle });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, await boundedBody(c.req.raw, apiBodyBudget('POST', '/api/mcp').values));
    } finally {
      await server.close();
    }
  };
}

/**
 * The request's JSON for the transport, its keys and elements counted before it is parsed (as
 * every API body is); malformed JSON is left to the transport, which answers it in JSON-RPC terms.
 */
async function boundedBody(request: Request, maxValues: number): Promise<{ parsedBody: unknown } | undefined> {
  const text = await request.clone().text();
  if (jsonValuesOver(text, maxValues)) throw new ApiError('too_large', `body: more than ${maxValues} keys and elements`);
  try {
    return { parsedBody: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
