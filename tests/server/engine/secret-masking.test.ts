import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, hasStatus, type EngineServer } from '../../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { SecretMask } from '../../../src/server/engine/output/secret-mask.ts';
import type { BusMessage } from '../../../src/server/events/event-bus.ts';

const VAR_SECRET = 'var-secret-7f3a9c';
const ENV_SECRET = 'env-secret-2b8d41';
const SURVEY_SECRET = 'survey-secret-91e0';
const KEY_PASSWORD = 'key-password-c4d2';

describe('secret mask', () => {
  it('hides every value, longest first, line by line for multi-line secrets and in JSON-escaped form', () => {
    const mask = new SecretMask(['abcd', 'abcdefgh', 'ab', '-----BEGIN KEY-----\nMIIEsecretbody\n-----END KEY-----', 'quote"inside']);
    expect(mask.apply('x=abcdefgh y=abcd z=ab')).toBe('x=******** y=******** z=ab');
    expect(mask.apply('MIIEsecretbody')).toBe('********');
    expect(mask.apply('"msg": "quote\\"inside"')).toBe('"msg": "********"');
    expect(new SecretMask(['', 'abc']).empty).toBe(true);
  });
});

describe('secrets stay out of argv, the stored log, the raw log and the live lines (sqlite)', () => {
  let e: EngineServer;
  let scripts: string;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  const live: BusMessage[] = [];

  beforeAll(async () => {
    e = await startEngineServer('sqlite');
    e.s.deps.bus.subscribe((m) => live.push(m));
    scripts = join(e.s.tmp, 'scripts');
    mkdirSync(scripts);
    writeFileSync(join(scripts, 'leak.sh'), [
      // one secret printed in two writes, 300 ms apart: two reads of the pipe, one line
      `printf 'split=%s' "\${SECRET_VAR:0:6}"; sleep 0.3; printf '%s|\\n' "\${SECRET_VAR:6}"`,
      'echo "var=$SECRET_VAR env=$SECRET_ENV survey=$api_token"',
      `echo "key=${KEY_PASSWORD}"`,
      'echo "args=$*"',
      'echo ready; sleep 2',
    ].join('\n'));
    fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'leak.sh' });
    const key = await e.s.deps.db.insertInto('access_key').values({
      project_id: fixture.project.id, name: 'Git login', type: 'login_password', owner: '', environment_id: null, created: new Date().toISOString(),
      secret: e.s.deps.secrets.seal(JSON.stringify({ login: 'git', password: KEY_PASSWORD })),
    }).returningAll().executeTakeFirstOrThrow();
    await e.s.deps.db.updateTable('repository').set({ ssh_key_id: key.id }).where('id', '=', fixture.repository.id).execute();
    await insertEnvironmentSecret(e.s.deps.db, e.s.deps.secrets, fixture.environment.id, fixture.project.id, 'var', 'SECRET_VAR', VAR_SECRET);
    await insertEnvironmentSecret(e.s.deps.db, e.s.deps.secrets, fixture.environment.id, fixture.project.id, 'env', 'SECRET_ENV', ENV_SECRET);
  });
  afterAll(async () => { await e.close(); });

  it('passes secrets by environment and masks every one of them wherever output goes', async () => {
    const tpl = await insertTemplate(e.s.deps.db, fixture.project.id, {
      name: 'Leaky', playbook: 'leak.sh', repository_id: fixture.repository.id, environment_id: fixture.environment.id,
      survey_vars: JSON.stringify([{ name: 'api_token', title: 'Token', type: 'secret' }]),
    });
    const res = await e.s.call('POST', `/api/project/${fixture.project.id}/tasks`, { template_id: tpl.id, secret: JSON.stringify({ api_token: SURVEY_SECRET }) }, e.admin);
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as number;
    await waitForTask(e.s.deps.db, id, (t) => t.status === 'running');
    const deadline = Date.now() + 10_000;
    while (!(await taskLog(e.s.deps.db, id)).includes('ready') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // what `ps` shows every local user: the command lines of all processes
    const argvs = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map((p) => {
      try { return readFileSync(`/proc/${p}/cmdline`, 'utf8'); } catch { return ''; }
    }).join('\n');
    const secrets = [VAR_SECRET, ENV_SECRET, SURVEY_SECRET, KEY_PASSWORD];
    for (const secret of secrets) expect(argvs).not.toContain(secret);

    const done = await waitForTask(e.s.deps.db, id, hasStatus('success', 'error'));
    const log = await taskLog(e.s.deps.db, id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log).toContain('split=********|');
    expect(log).toContain('var=******** env=******** survey=********');
    expect(log).toContain('key=********');
    const raw = await e.s.call('GET', `/api/project/${fixture.project.id}/tasks/${id}/raw_output`, undefined, e.admin);
    const liveText = live.filter((m) => m.type === 'log' && m.task_id === id).map((m) => (m as { output: string }).output).join('\n');
    expect(liveText).toContain('split=********|');
    for (const text of [log.join('\n'), raw.text, liveText]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
