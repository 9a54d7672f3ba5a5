import type { Db } from '../../src/server/db/database.ts';
import type { TaskRow } from '../../src/server/db/schema.ts';
import { startEngine, type Engine } from '../../src/server/engine/engine.ts';
import { isFinished } from '../../src/server/domain/tasks/task-status.ts';
import type { DialectName } from './dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from './harness.ts';

export interface EngineServer {
  s: TestServer;
  engine: Engine;
  admin: Auth;
  close: () => Promise<void>;
}

/**
 * A test runner API with the task engine running on it, signed in as the env admin.
 * @example const { s, admin, close } = await startEngineServer('sqlite');
 */
export async function startEngineServer(dialect: DialectName, env: Record<string, string> = {}): Promise<EngineServer> {
  const s = await startTestServer(dialect, env);
  const engine = await startEngine(s.deps);
  const admin = await s.login(ADMIN.login, ADMIN.password);
  const server: EngineServer = {
    s, engine, admin,
    close: async () => {
      // The engine may have been replaced by a test (restart); stop the current one.
      await server.engine.stop();
      await s.close();
    },
  };
  return server;
}

/**
 * Polls the task row until `until` holds (default: a finished status); throws with the last
 * status and the log when it does not within `timeoutMs`.
 */
export async function waitForTask(db: Db, taskId: number, until: (t: TaskRow) => boolean = (t) => isFinished(t.status), timeoutMs = 30_000): Promise<TaskRow> {
  const deadline = Date.now() + timeoutMs;
  let row: TaskRow | undefined;
  while (Date.now() < deadline) {
    row = await db.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirst();
    if (row && until(row)) return row;
    await new Promise((r) => setTimeout(r, 25));
  }
  const log = (await taskLog(db, taskId)).join('\n');
  throw new Error(`task ${taskId} stayed ${row?.status}; log:\n${log}`);
}

/** The stored output lines of a task, in order. */
export async function taskLog(db: Db, taskId: number): Promise<string[]> {
  const rows = await db.selectFrom('task_output').select('output').where('task_id', '=', taskId).orderBy('id').execute();
  return rows.map((r) => r.output);
}

export const hasStatus = (...statuses: string[]) => (t: TaskRow) => statuses.includes(t.status);
