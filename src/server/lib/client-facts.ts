import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** What the server believes about the browser or client behind a request. */
export interface ClientFacts {
  /** the client's address: the socket's, or the one a trusted proxy forwarded */
  address: string;
  /** whether the client reached us over TLS (directly or through a trusted proxy) */
  https: boolean;
}

/**
 * Reads `SEMAPHORE_TRUSTED_PROXIES` entries (addresses or CIDRs); throws with the bad entry.
 * @example trustedProxyList(['10.0.0.0/8', '::1'])
 */
export function trustedProxyList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (!family) throw new Error(`"${entry}" is not an IP address or CIDR`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 6 ? 128 : 32)) throw new Error(`"${entry}" has a bad prefix length`);
      list.addSubnet(address, bits, type);
    }
  }
  return list;
}

const lists = new WeakMap<string[], BlockList>();

/**
 * The client's address and scheme: forwarded headers (`X-Real-IP`, `X-Forwarded-For`,
 * `X-Forwarded-Proto`) count only when the socket peer is a trusted proxy, so nobody else can
 * pick the address the sign-in throttle counts against. A `SEMAPHORE_WEB_ROOT` on https makes
 * every request https (the TLS ends somewhere in front of us).
 * @example clientFacts({ address: '10.0.0.2', encrypted: false }, (n) => req.headers[n], config)
 */
export function clientFacts(
  socket: { address: string | undefined; encrypted: boolean },
  header: (name: string) => string | undefined,
  config: { trusted_proxies: string[]; web_host: string },
): ClientFacts {
  const peer = plainAddress(socket.address ?? 'local');
  const viaWebRoot = config.web_host.startsWith('https:');
  if (!isTrusted(peer, config.trusted_proxies)) return { address: peer, https: socket.encrypted || viaWebRoot };
  const forwarded = header('x-real-ip')?.trim() || lastUntrusted(header('x-forwarded-for'), config.trusted_proxies);
  const proto = header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return {
    address: forwarded && isIP(plainAddress(forwarded)) ? plainAddress(forwarded) : peer,
    https: socket.encrypted || viaWebRoot || proto === 'https',
  };
}

function isTrusted(address: string, entries: string[]): boolean {
  if (!entries.length || !isIP(address)) return false;
  let list = lists.get(entries);
  if (!list) lists.set(entries, list = trustedProxyList(entries));
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** The nearest hop in X-Forwarded-For that is not one of our proxies (the rest is client-written). */
function lastUntrusted(header: string | undefined, entries: string[]): string | undefined {
  const hops = (header ?? '').split(',').map((h) => plainAddress(h.trim())).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(hops[i]!, entries)) return hops[i];
  return hops[0];
}

/** `::ffff:10.0.0.1` as `10.0.0.1`, so one client has one spelling. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * clientFacts of a request that came over the network.
 * @example const client = requestClientFacts(req, deps.config);
 */
export function requestClientFacts(req: IncomingMessage, config: { trusted_proxies: string[]; web_host: string }): ClientFacts {
  const socket = req.socket as TLSSocket | undefined;
  const header = (name: string) => [req.headers[name]].flat()[0];
  return clientFacts({ address: socket?.remoteAddress, encrypted: Boolean(socket?.encrypted) }, header, config);
}
