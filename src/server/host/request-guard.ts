import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;
type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => unknown;

/**
 * Runs a request listener so that nothing it throws, synchronously or from a promise, can end
 * the process: the error becomes one log line and a 500 (JSON under `/api`, a short HTML page
 * elsewhere), or a closed connection when the answer had already begun.
 * @example createServer(guardRequests((req, res) => route(req, res)));
 */
export function guardRequests(listener: Listener): Listener {
  return function guardedRequest(req, res) {
    const fail = (err: unknown) => answerFailure(req, res, err);
    try {
      const result = listener(req, res);
      if (result instanceof Promise) result.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
}

/** The same guard for websocket upgrades: a failure closes the socket. */
export function guardUpgrades(listener: UpgradeListener): UpgradeListener {
  return function guardedUpgrade(req, socket, head) {
    const fail = (err: unknown) => {
      logFailure(req, err);
      socket.destroy();
    };
    try {
      const result = listener(req, socket, head);
      if (result instanceof Promise) result.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
}

function answerFailure(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  logFailure(req, err);
  if (res.headersSent) return void res.destroy();
  const api = (req.url ?? '').startsWith('/api');
  res.writeHead(500, { 'content-type': api ? 'application/json' : 'text/html; charset=utf-8' });
  res.end(api ? JSON.stringify({ error: 'internal server error' }) : '<!doctype html><title>500</title><h1>Internal server error</h1>');
}

function logFailure(req: IncomingMessage, err: unknown): void {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  // the path is attacker-chosen: keep the log line one line and bounded
  const path = JSON.stringify((req.url ?? '').slice(0, 200));
  console.error(`[http] ${req.method} ${path} failed: ${message.split('\n')[0]}`);
}
