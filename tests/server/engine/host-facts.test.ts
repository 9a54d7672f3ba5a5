import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';

const INVENTORY = ['alpha', 'bravo'].map((h) => `${h} ansible_connection=local ansible_python_interpreter=/usr/bin/python3`).join('\n');

const GATHERING = `- hosts: all
  gather_facts: true
  tasks:
    - name: say what it found
      debug:
        msg: "{{ ansible_distribution }} {{ ansible_default_ipv4.address | default('none') }}"
`;

/** Gathers nothing, and prints what a fact-reading of the output would take for facts. */
const FORGING = `- hosts: all
  gather_facts: false
  tasks:
    - name: pretend
      debug:
        msg: '"ansible_distribution": "Forged", "ansible_default_ipv4": {"address": "203.0.113.66"} {"alpha": {"distribution": "Forged"}}'
`;

/** What Ansible itself reports for this machine, through its own setup module. */
function machineFacts(): { distribution: string; distribution_version: string; ipv4: string | null; hostname: string } {
  const out = execFileSync('ansible', ['all', '-i', 'probe,', '-c', 'local', '-m', 'setup', '-e', 'ansible_python_interpreter=/usr/bin/python3'], { encoding: 'utf8', env: { ...process.env, ANSIBLE_NOCOLOR: '1' } });
  const facts = JSON.parse(out.slice(out.indexOf('{'))).ansible_facts;
  return { distribution: facts.ansible_distribution, distribution_version: facts.ansible_distribution_version, ipv4: facts.ansible_default_ipv4?.address ?? null, hostname: facts.ansible_hostname };
}

for (const dialect of DIALECTS) {
  describe(`host facts gathered by real ansible-playbook (${dialect})`, () => {
    let e: EngineServer;
    let base: string;
    let gathering: number;
    let forging: number;
    let first: number;
    const call = (method: string, path: string, body?: unknown) => e.s.call(method, `${base}${path}`, body, e.admin);
    const run = async (templateId: number, extra: Record<string, unknown> = {}) => {
      const res = await call('POST', '/tasks', { template_id: templateId, ...extra });
      expect(res.status, res.text).toBe(201);
      const done = await waitForTask(e.s.deps.db, res.body.id, undefined, 120_000);
      expect(done.status, (await taskLog(e.s.deps.db, res.body.id)).join('\n')).toBe('success');
      return res.body.id as number;
    };

    beforeAll(async () => {
      e = await startEngineServer(dialect);
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'gather.yml': GATHERING, 'forge.yml': FORGING }, 'Add playbooks');
      const fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, inventory: INVENTORY });
      const common = { app: 'ansible', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id };
      gathering = (await insertTemplate(e.s.deps.db, fx.project.id, { ...common, name: 'Gather', playbook: 'gather.yml', task_params: '{"allow_override_limit":true}' })).id;
      forging = (await insertTemplate(e.s.deps.db, fx.project.id, { ...common, name: 'Forge', playbook: 'forge.yml' })).id;
      base = `/api/project/${fx.project.id}`;
      first = await run(gathering);
    }, 180_000);
    afterAll(async () => { await e.close(); });

    it('records the OS, its version, the default IPv4 address and the hostname Ansible gathered, with the task, in the Hosts view and the host page', async () => {
      const expected = machineFacts();
      const res = await call('GET', '/hosts');
      expect(res.status, res.text).toBe(200);
      const byName = Object.fromEntries(res.body.hosts.map((h: { name: string }) => [h.name, h]));
      for (const host of ['alpha', 'bravo']) {
        expect(byName[host].facts).toEqual({ ...expected, task_id: first, gathered: expect.any(String) });
      }
      expect(expected.distribution).toMatch(/\w/);
      const one = await call('GET', '/hosts/alpha');
      expect(one.status, one.text).toBe(200);
      expect(one.body.facts).toMatchObject({ distribution: expected.distribution, ipv4: expected.ipv4, task_id: first });
    });

    it('keeps the earlier facts through a run that gathers none, whatever its output says', async () => {
      const before = (await call('GET', '/hosts/alpha')).body.facts;
      const forged = await run(forging);
      expect((await taskLog(e.s.deps.db, forged)).join('\n')).toContain('Forged');
      const after = await call('GET', '/hosts/alpha');
      expect(after.body.facts).toEqual(before);
      expect(after.body.facts.distribution).not.toBe('Forged');
    });

    it('moves only the gathered hosts to the newer run', async () => {
      const second = await run(gathering, { limit: 'bravo' });
      const res = await call('GET', '/hosts');
      const byName = Object.fromEntries(res.body.hosts.map((h: { name: string; facts: { task_id: number } }) => [h.name, h.facts.task_id]));
      expect(byName).toEqual({ alpha: first, bravo: second });
    });
  });
}
