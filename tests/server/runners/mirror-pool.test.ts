import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, type Db } from '../../../src/server/db/database.ts';
import { loadConfig } from '../../../src/server/config/config.ts';
import { newEncryptionKey, SecretBox } from '../../../src/server/crypto/secret-box.ts';
import { ensureAdminUser } from '../../../src/server/domain/users/admin-bootstrap.ts';
import { buildJobPayload, type JobPayload } from '../../../src/server/engine/remote/job-payload.ts';
import { loadMirror, MirrorPool } from '../../../src/server/runner/mirror-deps.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { ADMIN } from '../../support/harness.ts';
import { now } from '../../../src/server/lib/time.ts';

/** A runner's job databases are emptied and kept for later jobs: nothing of one job is seen by the next. */
describe('runner mirror pool', () => {
  let dir: string;
  let db: Db;
  let payload: JobPayload;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signalbox-mirror-'));
    db = openDatabase({ dialect: 'sqlite', host: join(dir, 'server.sqlite') });
    await migrateToLatest(db);
    await ensureAdminUser(db, { login: ADMIN.login, password: ADMIN.password, name: ADMIN.name, email: ADMIN.email });
    const fx = await insertProjectWithTemplate(db, { ownerId: 1 });
    const task = await db.insertInto('task').values({
      project_id: fx.project.id, template_id: fx.template.id, status: 'starting', user_id: 1, integration_id: null, schedule_id: null, build_task_id: null,
      inventory_id: null, playbook: '', environment: '', arguments: null, git_branch: null, message: '', commit_hash: null, commit_message: '', version: null,
      params: '{}', created: now(), start: null, end: null, locked_by: null, process_group: null, process_host: null, process_boot_id: null, runner_id: null,
    }).returningAll().executeTakeFirstOrThrow();
    payload = await buildJobPayload(db, new SecretBox(newEncryptionKey()), task, {});
  });

  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = () => loadConfig({ SEMAPHORE_TMP_PATH: join(dir, 'work') });

  it('hands a kept database back empty, with a new secret key and bus', async () => {
    const pool = new MirrorPool(config());
    const first = await pool.take();
    await loadMirror(first, payload);
    await first.db.insertInto('task_output').values({ task_id: payload.task.id, time: now(), output: 'from the first job', line: 1 }).execute();
    await pool.give(first);
    const second = await pool.take();
    expect(second.db).toBe(first.db);
    expect(second.secrets).not.toBe(first.secrets);
    expect(second.bus).not.toBe(first.bus);
    for (const table of ['task', 'task_output', 'project', 'template', 'access_key', 'event'] as const) {
      expect(await second.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
    }
    // the same rows load again (they would collide if anything were left)
    const task = await loadMirror(second, payload);
    expect(task.status).toBe('starting');
    await pool.give(second);
  });

  it('closes databases beyond the number it keeps', async () => {
    const pool = new MirrorPool(config(), 1);
    const [a, b] = [await pool.take(), await pool.take()];
    await pool.give(a);
    await pool.give(b);
    await expect(b.db.selectFrom('task').selectAll().execute()).rejects.toThrow();
    expect((await pool.take()).db).toBe(a.db);
  });
});
