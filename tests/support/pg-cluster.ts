import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The installed PostgreSQL's programs (Debian keeps them under /usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, 'bin') : null;
}

export interface PgCluster {
  port: number;
  /** pg_ctl stop with the given mode (immediate: like a crash) */
  stop(mode: 'immediate' | 'fast'): void;
  start(): void;
  createDatabase(name: string): Promise<void>;
  /** stops it (if running) and removes its files */
  remove(): void;
}

/**
 * A throwaway PostgreSQL cluster of its own, on `port`, owned by the unprivileged `nobody`
 * (initdb refuses root). Never touches the shared cluster on 5432.
 * @example const cluster = createPgCluster(bin, 55432); cluster.stop('immediate'); cluster.start();
 */
export function createPgCluster(bin: string, port: number): PgCluster {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-pgcluster-'));
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  const nobody = { uid: 65534, gid: 65534 };
  chownSync(dir, nobody.uid, nobody.gid);
  const run = (program: string, args: string[]) => execFileSync(join(bin, program), args, { ...nobody, cwd: dir, stdio: 'pipe', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } });
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`;
  const cluster: PgCluster = {
    port,
    start: () => { run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']); },
    stop: (mode) => { run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']); },
    async createDatabase(name) {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      await client.connect();
      await client.query(`create database ${name}`);
      await client.end();
    },
    remove: () => {
      try { cluster.stop('immediate'); } catch { /* not running */ }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
