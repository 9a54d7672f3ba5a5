import { proxyAssertion } from '../config/auth-config.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DIST_DIR } from '../paths.ts';
import { getRequestListener } from '@hono/node-server';
import WebSocket, { WebSocketServer } from 'ws';
import type { Deps } from '../deps.ts';
import { createApi } from '../app.ts';
import { PER_MESSAGE_DEFLATE, WebSocketHub } from '../ws/hub.ts';
import { decodePath, serveStaticFile } from './static-files.ts';
import { guardRequests, guardUpgrades } from './request-guard.ts';
import { setSecurityHeaders } from './security-headers.ts';
import { requestClientFacts } from '../lib/client-facts.ts';
import { isForeignRequest } from '../http/same-origin.ts';
import { createRunnerApi } from './runner-api-client.ts';
import { hasRequestBody, readBoundedBody, refuseTooLarge } from './bounded-body.ts';
import { API_BODY_LIMIT, consoleBodyLimit } from '../http/body-limits.ts';

const DIST = DIST_DIR + '/';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: undefined, locals: Pick<App.Locals, 'runnerApi' | 'client' | 'webRoot'>) => Promise<void>;

export interface HostServer {
  server: Server;
  hub: WebSocketHub;
  close: () => Promise<void>;
}

/**
 * One Node HTTP server: the runner API under `/api`, the websocket `/api/ws`, built client
 * assets, and every other path through Astro's SSR handler (when the console is built).
 */
export async function createHostServer(deps: Deps): Promise<HostServer> {
  const api = createApi(deps);
  const apiListener = getRequestListener(api.fetch);
  const astro = await loadAstroHandler();
  const hub = new WebSocketHub(deps);
  const clientDir = DIST + 'client';

  const server = createServer(guardRequests((req, res) => {
    const path = req.url ?? '/';
    setSecurityHeaders(res);
    if (decodePath(path) === null) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request: malformed path');
      return;
    }
    if (path === '/api' || path.startsWith('/api/') || path.startsWith('/api?') || path.startsWith('/.well-known/')) {
      if (deps.config.api_url && path !== '/api/ping') return proxyToRemote(deps.config.api_url, req, res);
      return apiListener(req, res);
    }
    if (serveStaticFile(clientDir, req, res)) return;
    if (!astro) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('The console is not built: run `npm run build`.');
      return;
    }
    const client = requestClientFacts(req, deps.config);
    const assertion = proxyAssertion(deps.config.proxy_auth, (name) => [req.headers[name]].flat()[0]);
    const locals = { runnerApi: createRunnerApi(api, deps.config.api_url, client, assertion), client, webRoot: deps.config.web_host };
    if (!hasRequestBody(req)) return astro(req, res, undefined, locals);
    return readConsoleBody(req, res).then(async (ok) => { if (ok) await astro(req, res, undefined, locals); });
  }));

  server.on('upgrade', guardUpgrades((req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!req.url?.startsWith('/api/ws')) return void socket.destroy();
    if (isForeignRequest((name) => [req.headers[name]].flat()[0], deps.config.web_host)) {
      return void socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    }
    if (deps.config.api_url) return relayWebSocket(deps.config.api_url, req, socket, head);
    return hub.handleUpgrade(req, socket, head);
  }));

  return {
    server, hub,
    close: () => new Promise((resolve) => {
      hub.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * Reads a console request's body within its path's limit (1 MB; the restore page's upload
 * more) before Astro sees it, whose own limit is 1 GB: larger bodies get 413 after at most the
 * limit was read. Astro then takes the body from `req.body` instead of the stream.
 */
async function readConsoleBody(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const body = await readBoundedBody(req, consoleBodyLimit(req.url ?? '/'));
  if (!body) {
    refuseTooLarge(res, false);
    return false;
  }
  Object.assign(req, { body });
  return true;
}

async function loadAstroHandler(): Promise<AstroHandler | null> {
  const entry = DIST + 'server/entry.mjs';
  if (!existsSync(entry)) return null;
  const mod = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  return mod.handler;
}

/** Forwards an API call unchanged to the remote runner API. */
async function proxyToRemote(base: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBoundedBody(req, API_BODY_LIMIT);
  if (!body) return refuseTooLarge(res, true);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers.set(k, v);
  try {
    const upstream = await fetch(base + req.url, {
      method: req.method, headers, body: body.length ? new Uint8Array(body) : undefined, redirect: 'manual',
    });
    // fetch has already decoded the body, so length and encoding headers no longer apply.
    const answer = new Headers(upstream.headers);
    answer.delete('content-encoding');
    answer.delete('content-length');
    const setCookies = upstream.headers.getSetCookie();
    answer.delete('set-cookie');
    res.writeHead(upstream.status, { ...Object.fromEntries(answer), ...(setCookies.length ? { 'set-cookie': setCookies } : {}) });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  } catch {
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'runner API unreachable' }));
  }
}

/** Relays `/api/ws` to the remote runner API, carrying the caller's cookie and token. */
function relayWebSocket(base: string, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  // the query carries a wall board's token (`?token=`), which the runner API checks
  const upstream = new WebSocket(base.replace(/^http/, 'ws') + '/api/ws' + new URL(req.url ?? '/', 'http://ws').search, {
    headers: { cookie: req.headers.cookie ?? '', authorization: req.headers.authorization ?? '' },
  });
  upstream.on('error', () => socket.destroy());
  upstream.on('open', () => {
    const relay = new WebSocketServer({ noServer: true, perMessageDeflate: PER_MESSAGE_DEFLATE });
    relay.handleUpgrade(req, socket, head, (client) => {
      upstream.on('message', (data) => client.send(data.toString()));
      upstream.on('close', () => client.close());
      client.on('close', () => upstream.close());
    });
  });
}
