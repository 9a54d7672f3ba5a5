import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { rsyslogAvailable, startRsyslog, type Rsyslog } from '../../support/rsyslog.ts';
import { startAuditExport, type AuditExport } from '../../../src/server/audit-export/audit-export.ts';
import { fileSink } from '../../../src/server/audit-export/file-sink.ts';
import { syslogSink } from '../../../src/server/audit-export/syslog-sink.ts';
import { webhookSink } from '../../../src/server/audit-export/webhook-sink.ts';

/** A loopback HTTP receiver that can be stopped and started again on the same port. */
async function startReceiver(port = 0) {
  const bodies: string[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  let server: Server | null = null;
  const listen = async (at: number) => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        headers.push(req.headers);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"Success","code":0}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(at, '127.0.0.1', resolve));
    return (server!.address() as { port: number }).port;
  };
  const boundPort = await listen(port);
  return {
    url: `http://127.0.0.1:${boundPort}/services/collector/event`, bodies, headers,
    stop: () => new Promise<void>((resolve) => { server!.closeAllConnections(); server!.close(() => resolve()); }),
    start: () => listen(boundPort),
  };
}

/** The `seq="n"` numbers of RFC 5424 messages with the tag, in arrival order. */
function syslogSeqs(messages: string[], tag: string): number[] {
  return messages.filter((m) => m.split(' ')[3] === tag).map((m) => Number(/ seq="(\d+)"/.exec(m)![1]));
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function until(check: () => Promise<boolean> | boolean, what: string, exporter: AuditExport): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await exporter.drain();
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function makeKeys(s: TestServer, admin: Auth, projectId: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await s.call('POST', `/api/project/${projectId}/keys`, { name: `k${i}-${Date.now()}`, type: 'none' }, admin);
    expect(res.status).toBe(201);
  }
}

const maybe = rsyslogAvailable() ? describe : describe.skip;

for (const dialect of DIALECTS) {
  maybe(`audit export: file, rsyslog, webhook (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let projectId: number;
    let rsyslog: Rsyslog;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      projectId = (await s.call('POST', '/api/projects', { name: 'Audited' }, admin)).body.id;
      rsyslog = await startRsyslog();
    }, 60_000);
    afterAll(async () => {
      await rsyslog?.remove();
      await s?.close();
    });

    it('delivers every event to a rotated JSON-lines file, rsyslog over UDP and TCP, and Splunk HEC with extra headers', async () => {
      const hec = await startReceiver();
      const dir = join(s.tmp, 'events');
      const exporter = startAuditExport(s.deps, [
        fileSink({ enabled: true, format: 'json', filename: join(dir, 'events.log'), maxsize: 0.004, maxbackups: 2, compress: true }),
        syslogSink({ enabled: true, network: 'udp', address: `127.0.0.1:${rsyslog.udpPort}`, tag: 'sb-udp', tls_ca: '', tls_skip_verify: false }, 'syslog-udp'),
        syslogSink({ enabled: true, network: 'tcp', address: `127.0.0.1:${rsyslog.tcpPort}`, tag: 'sb-tcp', tls_ca: '', tls_skip_verify: false }, 'syslog-tcp'),
        webhookSink({ enabled: true, url: hec.url, format: 'splunk_hec', headers: { Authorization: 'Splunk test-token', 'X-Tenant': 'ops' } }),
      ]);
      try {
        await makeKeys(s, admin, projectId, 25);
        const last = async () => Number((await s.deps.db.selectFrom('audit').select((eb) => eb.fn.max('seq').as('m')).executeTakeFirstOrThrow()).m ?? 0);
        await until(async () => (await last()) >= 27, 'every row sequenced', exporter);
        const n = await last();
        const envelopes = () => hec.bodies.flatMap((b) => b.split('\n').map((line) => JSON.parse(line)));
        await until(() => syslogSeqs(rsyslog.messages(), 'sb-tcp').length >= n && syslogSeqs(rsyslog.messages(), 'sb-udp').length >= n && envelopes().length >= n,
          'rsyslog and HEC to receive everything', exporter);
        expect(syslogSeqs(rsyslog.messages(), 'sb-tcp')).toEqual(range(1, n));
        expect(syslogSeqs(rsyslog.messages(), 'sb-udp').sort((a, b) => a - b)).toEqual(range(1, n));
        expect(rsyslog.messages()[0]).toMatch(/^<\d+>1 \d{4}-\d\d-\d\dT[\d:.]+Z \S+ sb-(udp|tcp) \d+ \w+ \[audit@32473 seq="\d+" action="\w+"/);
        expect(envelopes().map((e) => e.event.seq)).toEqual(range(1, n));
        expect(envelopes()[n - 1]).toMatchObject({ source: 'signalbox', sourcetype: 'signalbox:audit', event: { action: 'create', object_type: 'key', username: 'admin' } });
        expect(hec.headers[0]).toMatchObject({ authorization: 'Splunk test-token', 'x-tenant': 'ops' });
        // the file: rotated (two gzipped backups kept), the lines of all files a gap-free tail ending at n
        const files = readdirSync(dir).sort();
        expect(files.filter((f) => f.endsWith('.log.gz'))).toHaveLength(2);
        const text = [...files.filter((f) => f.endsWith('.gz')).map((f) => gunzipSync(readFileSync(join(dir, f))).toString()), readFileSync(join(dir, 'events.log'), 'utf8')].join('');
        const seqs = text.split('\n').filter(Boolean).map((line) => JSON.parse(line).seq as number);
        expect(seqs.at(-1)).toBe(n);
        expect(seqs).toEqual(range(seqs[0]!, n));
      } finally {
        await exporter.stop();
        await hec.stop();
      }
    }, 120_000);

    it('keeps events while a receiver is down and delivers each exactly once, in order, when it is back', async () => {
      const plain = await startReceiver();
      const exporter = startAuditExport(s.deps, [
        webhookSink({ enabled: true, url: plain.url, format: '', headers: {} }),
        syslogSink({ enabled: true, network: 'tcp', address: `127.0.0.1:${rsyslog.tcpPort}`, tag: 'sb-down', tls_ca: '', tls_skip_verify: false }, 'syslog-down'),
      ]);
      const delivered = async (sink: string) => Number((await s.deps.db.selectFrom('audit_export').select('delivered_seq').where('sink', '=', sink).executeTakeFirst())?.delivered_seq ?? -1);
      const lastSeq = async () => Number((await s.deps.db.selectFrom('audit').select((eb) => eb.fn.max('seq').as('m')).executeTakeFirstOrThrow()).m ?? 0);
      try {
        await makeKeys(s, admin, projectId, 3);
        await until(async () => (await delivered('webhook')) === (await lastSeq()) && (await delivered('syslog-down')) === (await lastSeq()), 'first delivery', exporter);
        await plain.stop();
        await rsyslog.stop();
        const started = Date.now();
        await makeKeys(s, admin, projectId, 10);
        expect(Date.now() - started, 'requests do not wait for receivers').toBeLessThan(20_000);
        await until(async () => {
          const rows = await s.deps.db.selectFrom('audit_export').select(['sink', 'last_error']).where('sink', 'in', ['webhook', 'syslog-down']).execute();
          return rows.length === 2 && rows.every((r) => r.last_error !== '');
        }, 'both receivers to refuse', exporter);
        await plain.start();
        await rsyslog.start();
        await until(async () => (await delivered('webhook')) === (await lastSeq()) && (await delivered('syslog-down')) === (await lastSeq()), 'catch-up', exporter);
        const n = await lastSeq();
        const first = JSON.parse(plain.bodies[0]!).seq as number;
        expect(plain.bodies.map((b) => JSON.parse(b).seq)).toEqual(range(first, n));
        expect(syslogSeqs(rsyslog.messages(), 'sb-down')).toEqual(range(1, n));
      } finally {
        await exporter.stop();
        await plain.stop();
      }
    }, 180_000);
  });
}

describe('audit export: syslog over TLS', () => {
  it('sends octet-counted RFC 5424 frames over TLS to a collector whose CA it is given', async () => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const tls = await import('node:tls');
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-syslog-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    let received = '';
    const server = tls.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (socket) => {
      socket.on('data', (d: Buffer) => { received += d.toString('utf8'); });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const s = await startTestServer('sqlite');
    const exporter = startAuditExport(s.deps, [syslogSink({ enabled: true, network: 'tls', address: `127.0.0.1:${(server.address() as { port: number }).port}`,
      tag: 'sb-tls', tls_ca: join(dir, 'cert.pem'), tls_skip_verify: false })]);
    try {
      const admin = await s.login(ADMIN.login, ADMIN.password);
      await s.call('POST', '/api/projects', { name: 'Over TLS' }, admin);
      const frames = () => {
        const out: string[] = [];
        let rest = received;
        for (let m = /^(\d+) /.exec(rest); m; m = /^(\d+) /.exec(rest)) {
          const start = m[0].length;
          const body = Buffer.from(rest.slice(start)).subarray(0, Number(m[1])).toString('utf8');
          out.push(body);
          rest = rest.slice(start + body.length);
        }
        return out;
      };
      await until(() => syslogSeqs(frames(), 'sb-tls').length >= 2, 'TLS frames', exporter);
      expect(syslogSeqs(frames(), 'sb-tls')).toEqual([1, 2]);
      expect(frames()[1]).toMatch(/^<37>1 \S+ \S+ sb-tls \d+ create \[audit@32473 seq="2" action="create" user="admin"/);
    } finally {
      await exporter.stop();
      await s.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
