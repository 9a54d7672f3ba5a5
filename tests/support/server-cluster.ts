import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { migrateToLatest, openDatabase, type Db, type DbSettings } from '../../src/server/db/database.ts';
import { ensureAdminUser } from '../../src/server/domain/users/admin-bootstrap.ts';
import { migratedDatabase } from './dialects.ts';
import { ADMIN } from './harness.ts';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';

export interface ClusterNode {
  port: number;
  process: ServerProcess;
  /** session cookie of the env admin on this server */
  cookie: string;
  api(method: string, path: string, body?: unknown): Promise<Response>;
}

export interface ServerCluster {
  tmp: string;
  settings: DbSettings;
  /** a connection of the test's own to the shared database */
  db: Db;
  nodes: ClusterNode[];
  close(): Promise<void>;
}

/**
 * `count` real `signalbox server` processes on one fresh PostgreSQL database (or the given one),
 * each on its own port, all signed in as the env admin. `prepare` runs on the migrated, empty
 * database before any server starts (fixtures every server should see from its first read,
 * such as schedules).
 * @example const cluster = await startServerCluster(2, async (db) => { ... }); cluster.nodes[1].api('GET', '/api/projects');
 */
export async function startServerCluster(count: number, prepare: (db: Db, tmp: string) => Promise<void> = async () => {}, options: { settings?: DbSettings; env?: NodeJS.ProcessEnv } = {}): Promise<ServerCluster> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-cluster-'));
  const fresh = options.settings ? { settings: options.settings, drop: async () => {} } : await migratedDatabase('postgres', tmp);
  const settings = fresh.settings;
  const db = openDatabase(settings);
  await migrateToLatest(db);
  await ensureAdminUser(db, { login: ADMIN.login, password: ADMIN.password, name: ADMIN.name, email: ADMIN.email });
  await prepare(db, tmp);
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const processes = await Promise.all(ports.map((port, i) => startServerProcess({
    ...process.env, ...options.env,
    SEMAPHORE_DB_DIALECT: 'postgres', SEMAPHORE_DB_HOST: settings.host, SEMAPHORE_DB_USER: settings.user ?? '', SEMAPHORE_DB: settings.name ?? '',
    SEMAPHORE_PORT: String(port), SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_TMP_PATH: join(tmp, `work-${i}`),
    SEMAPHORE_ACCESS_KEY_ENCRYPTION: Buffer.alloc(32, 7).toString('base64'),
  }, port, { timeoutMs: 120_000 })));
  const nodes: ClusterNode[] = [];
  for (const [i, port] of ports.entries()) {
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    nodes.push({
      port, process: processes[i]!, cookie,
      api: (method, path, body) => fetch(`http://127.0.0.1:${port}${path}`, {
        method, headers: { 'content-type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body),
      }),
    });
  }
  return {
    tmp, settings, db, nodes,
    async close() {
      await Promise.all(nodes.map((n) => new Promise<void>((resolve) => {
        if (n.process.child.exitCode !== null) return resolve();
        n.process.child.once('exit', () => resolve());
        n.process.child.kill('SIGTERM');
        setTimeout(() => n.process.child.kill('SIGKILL'), 10_000).unref();
      })));
      await db.destroy();
      await fresh.drop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** A websocket client on `/api/ws` of a node; `messages` collects what arrived, each with its arrival time. */
export async function openTaskSocket(node: ClusterNode): Promise<{ messages: { at: number; m: Record<string, unknown> }[]; socket: WebSocket; close(): void }> {
  const socket = new WebSocket(`ws://127.0.0.1:${node.port}/api/ws`, { headers: { cookie: node.cookie } });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  const messages: { at: number; m: Record<string, unknown> }[] = [];
  socket.on('message', (data) => messages.push({ at: Date.now(), m: JSON.parse(data.toString()) }));
  return { messages, socket, close: () => socket.close() };
}
