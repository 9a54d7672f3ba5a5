import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, HELLO_OUTPUT, run, startCompatServer, type CompatServer } from './support/compat-server.ts';

const PLAYBOOK = fileURLToPath(new URL('./clients/semaphore-uri.yml', import.meta.url));

/** Every task of the playbook, in order, as the json callback names them. */
const TASKS = [
  'sign in', 'create a project', 'create a key', 'create a repository', 'create an inventory', 'create a variable group',
  'create a template', 'the created objects answer what was sent', 'start a task', 'wait for the task', 'read its output',
  'the task succeeded and printed the script\'s line', 'delete everything, newest first, with bodyless DELETEs', 'delete the project',
  'the project is gone', 'sign out', 'the session is over',
];

interface PlayResult { plays: { tasks: { task: { name: string }; hosts: Record<string, { failed?: boolean; status?: number; results?: { status: number }[] }> }[] }[] }

for (const dialect of DIALECTS) {
  describe(`an Ansible playbook using ansible.builtin.uri (${dialect})`, () => {
    let server: CompatServer;
    beforeAll(async () => { server = await startCompatServer(dialect); });
    afterAll(async () => { await server?.close(); });

    it('signs in, builds a project, runs a task, reads its output, deletes everything and signs out', async () => {
      const vars = { base_url: server.url, login: ADMIN.login, password: ADMIN.password, repo_url: server.repoUrl, expected_output: HELLO_OUTPUT };
      const { code, stdout, stderr } = await run('ansible-playbook', [PLAYBOOK, '-e', JSON.stringify(vars)],
        { ANSIBLE_STDOUT_CALLBACK: 'json', ANSIBLE_LOCALHOST_WARNING: 'false', ANSIBLE_INVENTORY_UNPARSED_WARNING: 'false', ANSIBLE_NOCOLOR: '1' });
      const result = JSON.parse(stdout.slice(stdout.indexOf('{'))) as PlayResult;
      // a failed task shows what the server answered
      const ran = result.plays[0]!.tasks.map((t) => ({ name: t.task.name, failed: t.hosts.localhost?.failed ? JSON.stringify(t.hosts.localhost).slice(0, 600) : false }));
      expect({ code, stderr: code ? stderr : '', ran }).toEqual({ code: 0, stderr: '', ran: TASKS.map((name) => ({ name, failed: false })) });
      const statusOf = (name: string) => result.plays[0]!.tasks.find((t) => t.task.name === name)!.hosts.localhost!;
      expect(statusOf('delete everything, newest first, with bodyless DELETEs').results!.map((r) => r.status)).toEqual([204, 204, 204, 204, 204]);
      expect([statusOf('sign out').status, statusOf('the session is over').status]).toEqual([204, 401]);
      expect(await server.s.deps.db.selectFrom('project').select('id').where('name', '=', 'Ansible project').execute()).toEqual([]);
      expect(await server.s.deps.db.selectFrom('session').select('id').where('expired', '=', 0).execute()).toEqual([]);
    }, 180_000);
  });
}
