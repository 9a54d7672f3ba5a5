import { createSocket } from 'node:dgram';
import { hostname } from 'node:os';
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { readFileSync } from 'node:fs';
import type { AuditSettings } from '../config/config.ts';
import type { AuditSink, ExportedAuditEvent } from './audit-record.ts';

/** facility "security/authorization" (4, RFC 5424 table 1); notice for changes, warning for failures */
const FACILITY = 4;
const NOTICE = 5;
const WARNING = 4;
/** RFC 5424 structured-data id; 32473 is the enterprise number kept for examples (RFC 5612) */
const SD_ID = 'audit@32473';

/**
 * One event as an RFC 5424 message: header, `[audit@32473 seq=… action=… user=… ip=…]`, and the
 * event as JSON for the message part.
 * @example rfc5424(event, 'signalbox') // '<37>1 2026-01-01T00:00:00.000Z host signalbox 12 create [audit@32473 seq="1" …] {…}'
 */
export function rfc5424(event: ExportedAuditEvent, tag: string): string {
  const severity = event.action.endsWith('_fail') ? WARNING : NOTICE;
  const params: [string, unknown][] = [['seq', event.seq], ['action', event.action], ['user', event.username], ['ip', event.client_ip],
    ['object_type', event.object_type], ['object_id', event.object_id ?? ''], ['project_id', event.project_id ?? '']];
  const sd = `[${SD_ID} ${params.map(([k, v]) => `${k}="${String(v).replace(/["\\\]]/g, (c) => `\\${c}`)}"`).join(' ')}]`;
  const header = `<${FACILITY * 8 + severity}>1 ${event.time} ${field(hostname(), 255)} ${field(tag || 'signalbox', 48)} ${process.pid} ${field(event.action, 32)}`;
  return `${header} ${sd} ${JSON.stringify(event)}`;
}

/** A header field: printable ASCII without spaces, '-' when empty. */
function field(value: string, max: number): string {
  return value.replace(/[^\x21-\x7e]/g, '').slice(0, max) || '-';
}

/**
 * Sends events to a syslog collector in RFC 5424: one datagram per event over UDP (which cannot
 * tell a lost datagram: use TCP or TLS where every event matters), or octet-counted frames
 * (RFC 6587) over one TCP/TLS connection, opened again after the collector closed it.
 */
export function syslogSink(settings: AuditSettings['syslog'], name = 'syslog'): AuditSink {
  const [host = '127.0.0.1', portText = '514'] = splitAddress(settings.address);
  const port = Number(portText);
  if (settings.network === 'udp') return udpSink(host, port, settings.tag, name);
  let socket: Socket | null = null;
  const open = () => new Promise<Socket>((resolve, reject) => {
    const options = { host, port, ...(settings.network === 'tls'
      ? { rejectUnauthorized: !settings.tls_skip_verify, ca: settings.tls_ca ? readFileSync(settings.tls_ca) : undefined, servername: isIP(host) ? undefined : host } : {}) };
    const s = settings.network === 'tls' ? connectTls(options, () => resolve(s)) : connectTcp(options, () => resolve(s));
    s.once('error', reject);
  });
  return {
    name,
    batch: 200,
    async deliver(events) {
      if (!socket || socket.destroyed || !socket.writable) {
        socket = await open();
        const current = socket;
        const drop = () => { current.destroy(); if (socket === current) socket = null; };
        current.on('error', drop).on('end', drop).on('close', drop);
        current.resume();
      }
      const frames = events.map((e) => { const m = Buffer.from(rfc5424(e, settings.tag)); return `${m.length} ${m.toString()}`; }).join('');
      const target = socket;
      await new Promise<void>((resolve, reject) => target.write(frames, (err) => (err ? reject(err) : resolve())));
      if (target.destroyed) throw new Error('syslog connection closed');
    },
    async close() {
      socket?.end();
      socket = null;
    },
  };
}

function udpSink(host: string, port: number, tag: string, name: string): AuditSink {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  socket.on('error', () => {});
  return {
    name,
    batch: 200,
    async deliver(events) {
      for (const event of events) {
        await new Promise<void>((resolve, reject) => socket.send(rfc5424(event, tag), port, host, (err) => (err ? reject(err) : resolve())));
      }
    },
    async close() {
      socket.close();
    },
  };
}

/** "host:port" or "[v6]:port". */
function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at).replace(/^\[|\]$/g, ''), address.slice(at + 1)];
}
