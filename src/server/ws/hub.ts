import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Deps } from '../deps.ts';
import type { BusMessage } from '../events/event-bus.ts';
import { resolveCaller } from '../auth/authenticate.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';

const PING_EVERY_MS = 54_000;
const MEMBERSHIP_TTL_MS = 30_000;
const MAX_CLIENT_MESSAGE_BYTES = 512;
/**
 * Messages of 1 KB and more (long log lines) travel deflated when the browser offers
 * permessage-deflate; smaller ones are not worth the CPU. Without context takeover the server
 * keeps no compression window per connection between messages (and `ws` applies the threshold
 * only then).
 */
export const PER_MESSAGE_DEFLATE = { threshold: 1024, serverNoContextTakeover: true };

interface Client {
  socket: WebSocket;
  userId: number;
  admin: boolean;
  alive: boolean;
  /** project id → (is member, checked at) */
  memberships: Map<number, { member: boolean; at: number }>;
}

/**
 * `/api/ws`: authenticates the upgrade like any API call, then forwards task `update` and `log`
 * messages to every member of the task's project and to system admins (reference §4.7).
 */
export class WebSocketHub {
  readonly #deps: Deps;
  readonly #server = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, perMessageDeflate: PER_MESSAGE_DEFLATE });
  readonly #clients = new Set<Client>();
  readonly #unsubscribe: () => void;
  readonly #pinger: NodeJS.Timeout;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#unsubscribe = deps.bus.subscribe((m) => void this.#broadcast(m));
    this.#pinger = setInterval(() => this.#pingAll(), PING_EVERY_MS).unref();
  }

  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const caller = await resolveCaller(this.#deps.db, req.headers.authorization, readCookie(req.headers.cookie, SESSION_COOKIE)).catch(() => null);
    if (!caller?.verified) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.#server.handleUpgrade(req, socket, head, (ws) => {
      const client: Client = { socket: ws, userId: caller.user.id, admin: Boolean(caller.user.admin), alive: true, memberships: new Map() };
      this.#clients.add(client);
      ws.on('pong', () => { client.alive = true; });
      ws.on('close', () => this.#clients.delete(client));
      ws.on('error', () => this.#clients.delete(client));
    });
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  close(): void {
    this.#unsubscribe();
    clearInterval(this.#pinger);
    for (const c of this.#clients) c.socket.terminate();
    this.#server.close();
  }

  async #broadcast(message: BusMessage): Promise<void> {
    const text = JSON.stringify(message);
    for (const client of this.#clients) {
      if (client.socket.readyState !== client.socket.OPEN) continue;
      if (client.admin || (await this.#isMember(client, message.project_id))) client.socket.send(text);
    }
  }

  async #isMember(client: Client, projectId: number): Promise<boolean> {
    const cached = client.memberships.get(projectId);
    if (cached && Date.now() - cached.at < MEMBERSHIP_TTL_MS) return cached.member;
    const row = await this.#deps.db.selectFrom('project_user').select('role')
      .where('project_id', '=', projectId).where('user_id', '=', client.userId).executeTakeFirst();
    client.memberships.set(projectId, { member: Boolean(row), at: Date.now() });
    return Boolean(row);
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
