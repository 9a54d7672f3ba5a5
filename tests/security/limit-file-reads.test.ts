import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type Caller, type World } from '../support/world.ts';
import { insertLocalAnsibleTemplate, postTask } from '../support/local-ansible.ts';
import { startHttpEngineServer } from '../support/http-test-server.ts';
import { taskLog, waitForTask } from '../support/engine.ts';

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="ran on {{ inventory_hostname }}"
`;

const REFUSED = 'limit: a host pattern must not start with "@" (ansible reads it as a file on the server)';

/**
 * Every way of spelling a limit that the audit used or that ansible-core's grammar allows:
 * `,` splits first; without a comma `:` and whitespace (Python's, which has \x1c-\x1f and
 * \x85 where JavaScript's has not) do; `;`, `!` and `&` do not split. `reads` says whether
 * ansible-playbook would open a file for it.
 */
function spellings(canary: string, environ: string): { body: Record<string, unknown>; reads: boolean }[] {
  const limits: [string, boolean][] = [
    [`localhost:@${environ}`, true], ['localhost @/etc/hostname', true], ['localhost:@/etc/passwd', true], ['@/etc/hostname', true],
    ['localhost:@/dev/zero', true], ['@/dev/zero', true],
    [`@${canary}`, true], [`localhost,@${canary}`, true], [`localhost, @${canary}`, true], [`localhost:@${canary}`, true],
    [`localhost @${canary}`, true], [`localhost\t@${canary}`, true], [`localhost\n@${canary}`, true], [`localhost\x1c@${canary}`, true],
    [`localhost\x85@${canary}`, true], [`localhost\u3000@${canary}`, true], [`localhost,\x1f@${canary}`, true], [`\x1e@${canary}`, true],
    [`localhost;:@${canary}`, true], [`[web]:@${canary}`, true], [`all:!db:&localhost:@${canary}`, true],
    [`localhost;@${canary}`, false], [`localhost:!@${canary}`, false], [`localhost:&@${canary}`, false], [`!@${canary}`, false],
    [`&@${canary}`, false], [`localhost,!@${canary}`, false], [`localhost\ufeff@${canary}`, false],
  ];
  return [
    ...limits.map(([limit, reads]) => ({ body: { limit }, reads })),
    { body: { params: { limit: ['localhost', `\x1c@${canary}`] } }, reads: true },
    { body: { params: { limit: [`localhost:@${canary}`] } }, reads: true },
    // the top-level limit as a list (the launch dialog's ticked hosts): each item judged the same way
    { body: { limit: ['localhost', `@${canary}`] }, reads: true },
    { body: { limit: [`localhost\x1c@${canary}`] }, reads: true },
    { body: { limit: ['localhost', `!@${canary}`] }, reads: false },
    { body: { params: { limit: 'localhost', tags: [`@${canary}`, `x:@${canary}`], skip_tags: `@${canary}` } }, reads: false },
  ];
}

for (const dialect of DIALECTS) {
  describe(`a task_runner's limit never makes ansible-playbook read a file (${dialect}, real ansible-playbook)`, () => {
    let server: Awaited<ReturnType<typeof startHttpEngineServer>>;
    let w: World;
    let templateId = 0;
    let canaryFile = '';
    let secrets: string[] = [];

    beforeAll(async () => {
      server = await startHttpEngineServer(dialect);
      const { db } = server.s.deps;
      w = await buildWorld(db);
      canaryFile = join(server.s.tmp, 'canary.txt');
      const canary = `canary-${randomBytes(8).toString('hex')}`;
      writeFileSync(canaryFile, `${canary}\n`);
      // what must never reach a log: the canary, the server's environment, /etc/passwd and /etc/hostname
      const environ = readFileSync(`/proc/${process.pid}/environ`, 'utf8').split('\0').filter((entry) => entry.length > 12);
      const lines = (file: string) => readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
      secrets = [canary, ...environ, ...lines('/etc/passwd'), ...lines('/etc/hostname')];
      templateId = (await insertLocalAnsibleTemplate(db, w.projectId, join(server.s.tmp, `repo-${w.projectId}`), { 'site.yml': PLAYBOOK }, {
        task_params: JSON.stringify({ allow_override_limit: true, allow_override_tags: true, allow_override_skip_tags: true }),
      })).templateId;
    }, 60_000);
    afterAll(() => server.close());

    const post = (who: Caller, body: Record<string, unknown>) => postTask(server.url, w, who, { template_id: templateId, ...body });
    /** The finished task's log; "ignoring: <line>" is how ansible prints a file's lines. */
    const logOf = async (taskId: number) => {
      await waitForTask(server.s.deps.db, taskId, undefined, 180_000);
      return (await taskLog(server.s.deps.db, taskId)).join('\n');
    };
    /** Ansible wraps its warnings at 80 columns, breaking at spaces and hyphens: compare without colours and whitespace. */
    const squash = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\s+/g, '');
    const leaked = (log: string) => secrets.filter((s) => squash(log).includes(squash(s.length >= 12 ? s : `ignoring: ${s}`)));

    it('refuses every spelling ansible would read as a file (400, no task), and runs the rest without printing any file', async () => {
      const cases = spellings(canaryFile, `/proc/${process.pid}/environ`);
      const started: { body: Record<string, unknown>; id: number }[] = [];
      for (const { body, reads } of cases) {
        const res = await post('task_runner', body);
        if (reads) expect([body, res]).toEqual([body, { status: 400, body: { error: REFUSED } }]);
        else expect([body, res.status, res.body.error]).toEqual([body, 201, undefined]);
        if (res.status === 201) started.push({ body, id: res.body.id! });
      }
      const logs = await Promise.all(started.map(async ({ body, id }) => ({ body, log: await logOf(id) })));
      for (const { body, log } of logs) {
        expect(log, JSON.stringify(body)).toMatch(/PLAY|ERROR!/);
        expect([body, leaked(log)]).toEqual([body, []]);
      }
    }, 300_000);

    it('lets a manager, who may edit the template, point the limit at a file, and the leak check sees it', async () => {
      const res = await post('manager', { limit: `localhost:@${canaryFile}` });
      expect(res.status).toBe(201);
      const log = await logOf(res.body.id!);
      expect(leaked(log), log).toHaveLength(1);
    }, 180_000);
  });
}
