import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Deps } from '../deps.ts';
import type { BusMessage } from '../events/event-bus.ts';
import { authenticatedCaller } from '../auth/authenticate.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { loadSocketAccess, mayReceive, type SocketAccess, type SocketCredential } from './socket-access.ts';
import { boardTokenGrant } from '../domain/board/board-token.repository.ts';

const PING_EVERY_MS = 54_000;
/** How often open sockets are checked against their session or token when no message flows. */
const RECHECK_EVERY_MS = 250;
const MAX_CLIENT_MESSAGE_BYTES = 512;
/** The close code a socket gets when what opened it ended (RFC 6455 "policy violation"). */
const CREDENTIAL_ENDED = 1008;
/**
 * Messages of 1 KB and more (long log lines) travel deflated when the browser offers
 * permessage-deflate; smaller ones are not worth the CPU. Without context takeover the server
 * keeps no compression window per connection between messages (and `ws` applies the threshold
 * only then).
 */
export const PER_MESSAGE_DEFLATE = { threshold: 1024, serverNoContextTakeover: true };

interface Client extends SocketCredential {
  socket: WebSocket;
  alive: boolean;
  /** what the socket may receive, as last read; null until the first check */
  access: SocketAccess | null;
}

/**
 * `/api/ws`: authenticates the upgrade like any API call, then forwards task `update` and `log`
 * messages to every member of the task's project and to system admins (reference §4.7).
 *
 * A socket lives only as long as what opened it: every batch of messages is preceded by one
 * check of all sockets (their session or token still stands, their user's admin flag and
 * memberships now), and the same check (four small queries) runs every RECHECK_EVERY_MS while sockets are open, so
 * a sign-out, revocation, password change, deleted token or deleted user closes the socket
 * within a second, on whichever server made the change.
 */
export class WebSocketHub {
  readonly #deps: Deps;
  readonly #server = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, perMessageDeflate: PER_MESSAGE_DEFLATE });
  readonly #clients = new Set<Client>();
  readonly #unsubscribe: () => void;
  readonly #pinger: NodeJS.Timeout;
  readonly #rechecker: NodeJS.Timeout;
  #queue: BusMessage[] = [];
  #delivering: Promise<void> | null = null;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#unsubscribe = deps.bus.subscribe((m) => {
      this.#queue.push(m);
      this.#deliver();
    });
    this.#pinger = setInterval(() => this.#pingAll(), PING_EVERY_MS).unref();
    this.#rechecker = setInterval(() => { if (this.#clients.size) this.#deliver(); }, RECHECK_EVERY_MS).unref();
  }

  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const credential = await this.#credentialOf(req);
    if (!credential) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.#server.handleUpgrade(req, socket, head, (ws) => {
      const client: Client = { socket: ws, ...credential, alive: true, access: null };
      this.#clients.add(client);
      ws.on('pong', () => { client.alive = true; });
      ws.on('close', () => this.#clients.delete(client));
      ws.on('error', () => this.#clients.delete(client));
    });
  }

  /** `?token=` a wall-board token (and then nothing else counts), else the session or API token. */
  async #credentialOf(req: IncomingMessage): Promise<SocketCredential | null> {
    const boardToken = new URL(req.url ?? '/', 'http://ws').searchParams.get('token');
    if (boardToken !== null) {
      const grant = await boardTokenGrant(this.#deps.db, boardToken).catch(() => null);
      return grant ? { userId: grant.userId, sessionId: undefined, tokenHash: undefined, boardTokenHash: grant.hash } : null;
    }
    const caller = await authenticatedCaller(this.#deps.db, this.#deps.config, {
      authorization: req.headers.authorization, cookie: readCookie(req.headers.cookie, SESSION_COOKIE), header: (name) => [req.headers[name]].flat()[0],
    }).catch(() => null);
    return caller ? { userId: caller.user.id, sessionId: caller.sessionId, tokenHash: caller.tokenHash } : null;
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  close(): void {
    this.#unsubscribe();
    clearInterval(this.#pinger);
    clearInterval(this.#rechecker);
    for (const c of this.#clients) c.socket.terminate();
    this.#server.close();
  }

  /** One delivery loop at a time, so messages keep their order and checks do not pile up. */
  #deliver(): void {
    if (this.#delivering) return;
    this.#delivering = this.#deliverQueued().finally(() => {
      this.#delivering = null;
      if (this.#queue.length) this.#deliver();
    });
  }

  async #deliverQueued(): Promise<void> {
    do {
      const batch = this.#queue.splice(0);
      try {
        await this.#recheckAll();
      } catch (error) {
        // without a fresh check nothing is sent: the task log reads what it missed from /output
        console.warn(`[ws] could not check socket access; ${batch.length} message(s) not sent: ${(error as Error).message}`);
        continue;
      }
      for (const message of batch) this.#send(message);
    } while (this.#queue.length);
  }

  async #recheckAll(): Promise<void> {
    const clients = [...this.#clients];
    if (!clients.length) return;
    const access = await loadSocketAccess(this.#deps.db, clients);
    for (const client of clients) {
      client.access = access.get(client) ?? null;
      if (client.access?.live) continue;
      this.#clients.delete(client);
      client.socket.close(CREDENTIAL_ENDED, 'signed out');
    }
  }

  #send(message: BusMessage): void {
    const text = JSON.stringify(message);
    for (const client of this.#clients) {
      if (client.socket.readyState !== client.socket.OPEN) continue;
      if (mayReceive(client.access, message.project_id, message.type)) client.socket.send(text);
    }
  }

  #pingAll(): void {
    for (const client of this.#clients) {
      if (!client.alive) {
        client.socket.terminate();
        this.#clients.delete(client);
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
