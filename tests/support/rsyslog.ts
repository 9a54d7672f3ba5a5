import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RSYSLOGD = '/usr/sbin/rsyslogd';

export interface Rsyslog {
  udpPort: number;
  tcpPort: number;
  /** every message received so far, as sent (RFC 5424), in arrival order */
  messages(): string[];
  stop(): Promise<void>;
  /** starts the daemon again on the same ports */
  start(): Promise<void>;
  remove(): Promise<void>;
}

export function rsyslogAvailable(): boolean {
  return existsSync(RSYSLOGD);
}

/** A free loopback port of the protocol (bound, then released). */
async function freePort(kind: 'tcp' | 'udp'): Promise<number> {
  if (kind === 'tcp') {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  socket.close();
  return port;
}

/**
 * Debian's rsyslogd as a child process of the test, with its own config, pid file and work
 * folder, listening on loopback UDP and TCP and writing each message, raw, to a file.
 * @example const r = await startRsyslog(); ...; expect(r.messages()).toHaveLength(3); await r.remove();
 */
export async function startRsyslog(): Promise<Rsyslog> {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-rsyslog-'));
  const udpPort = await freePort('udp');
  const tcpPort = await freePort('tcp');
  const out = join(dir, 'received.log');
  writeFileSync(join(dir, 'rsyslog.conf'), [
    `global(workDirectory="${dir}" maxMessageSize="64k")`,
    'module(load="imudp")', 'module(load="imtcp")',
    `input(type="imudp" address="127.0.0.1" port="${udpPort}")`,
    `input(type="imtcp" address="127.0.0.1" port="${tcpPort}")`,
    'template(name="raw" type="string" string="%rawmsg%\\n")',
    `action(type="omfile" file="${out}" template="raw" flushOnTXEnd="on" asyncWriting="off")`, '',
  ].join('\n'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(RSYSLOGD, ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslogd.pid')], { stdio: 'ignore' });
    await waitForTcp(tcpPort);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    udpPort, tcpPort, start, stop,
    messages: () => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : []),
    remove: async () => { await stop(); rmSync(dir, { recursive: true, force: true }); },
  };
}

async function waitForTcp(port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`rsyslogd did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
