import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { isDatabaseUnavailable } from './db-faults.ts';

/**
 * SQLite waits for a lock at most this long per attempt, blocking the event loop meanwhile;
 * between attempts the server serves other requests.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 50;
/** How long a statement keeps retrying a locked database before the error reaches the caller (503). */
const RETRY_FOR_MS = 3000;
const PAUSE_MS = [10, 25, 50, 100];

/**
 * better-sqlite3 is synchronous: a long busy_timeout freezes the whole server while another
 * process holds the write lock. This dialect keeps the busy timeout short and retries locked
 * statements asynchronously; transactions start with BEGIN IMMEDIATE, so a transaction waits
 * for the lock before it reads instead of failing halfway.
 * @example new Kysely({ dialect: new RetryingSqliteDialect({ database: file }) })
 */
export class RetryingSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new RetryingDriver(super.createDriver());
  }
}

class RetryingDriver implements Driver {
  readonly #inner: Driver;
  readonly #connections = new WeakMap<DatabaseConnection, RetryingConnection>();

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.#inner.acquireConnection();
    let wrapped = this.#connections.get(inner);
    if (!wrapped) this.#connections.set(inner, (wrapped = new RetryingConnection(inner)));
    return wrapped;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection((connection as RetryingConnection).inner ?? connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

class RetryingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;

  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (err) {
        if (!isDatabaseUnavailable(err) || Date.now() >= giveUpAt) throw err;
        await new Promise((r) => setTimeout(r, PAUSE_MS[Math.min(attempt, PAUSE_MS.length - 1)]!));
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}
