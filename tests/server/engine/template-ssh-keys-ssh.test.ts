import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { makeSshKeyPair, serveSiteWithSubmodule, startSshd, type TestSshd } from '../../support/sshd.ts';

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - raw: echo extra-key-$((6*7))
      register: out
    - debug:
        msg: "{{ out.stdout | trim }}"
`;

/**
 * A template's extra SSH keys against a real OpenSSH server on a loopback port that accepts only
 * the extra key: the git clone (with a submodule on the same server) and Ansible's connection
 * succeed with it among other keys, and fail without it. Needs Debian's openssh-server.
 */
for (const dialect of DIALECTS) {
  describe(`extra SSH keys per template with a real sshd (${dialect})`, () => {
    let e: EngineServer;
    let sshd: TestSshd;
    let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let keyIds: { extra: number; wrong: number; none: number };
    let siteUrl: string;
    const base = () => `/api/project/${fixture.project.id}`;
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await e.s.call(method, `${base()}${path}`, body, e.admin);
      expect(res.status, res.text).toBeLessThan(300);
      return res.body;
    };
    const run = async (templateId: number) => {
      const task = await api('POST', '/tasks', { template_id: templateId });
      const done = await waitForTask(e.s.deps.db, task.id, undefined, 90_000);
      return { status: done.status, log: (await taskLog(e.s.deps.db, task.id)).join('\n') };
    };

    beforeAll(async () => {
      const keys = mkdtempSync(join(tmpdir(), 'template-keys-'));
      const extraPair = makeSshKeyPair(keys, 'extra');
      const wrongPair = makeSshKeyPair(keys, 'wrong');
      sshd = await startSshd([extraPair.publicKey]);
      siteUrl = serveSiteWithSubmodule(sshd, { 'run.sh': 'echo "lib says: $(cat lib/lib.txt 2>/dev/null || echo missing)"\n', 'site.yml': PLAYBOOK });

      e = await startEngineServer(dialect);
      fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1 });
      keyIds = {
        none: fixture.key.id,
        extra: (await api('POST', '/keys', { name: 'Fleet key', type: 'ssh', ssh: { login: '', private_key: extraPair.privateKey } })).id,
        wrong: (await api('POST', '/keys', { name: 'Wrong key', type: 'ssh', ssh: { login: '', private_key: wrongPair.privateKey } })).id,
      };
    }, 60_000);
    afterAll(async () => { await e?.close(); sshd?.stop(); });

    const template = async (name: string, body: Record<string, unknown>) => {
      const repo = await api('POST', '/repositories', { name, git_url: siteUrl, git_branch: 'main', ssh_key_id: keyIds.none, pull_submodules: true });
      return api('POST', '/templates', { name, repository_id: repo.id, ...body });
    };

    it('clones over SSH, submodules included, with an extra key of the template, and not without it', async () => {
      const without = await template('Bash without', { app: 'bash', playbook: 'run.sh', inventory_id: fixture.inventory.id });
      const failed = await run(without.id);
      expect(failed.status, failed.log).toBe('error');
      expect(failed.log).toMatch(/Permission denied|Could not read from remote repository/);
      const withKeys = await template('Bash with', { app: 'bash', playbook: 'run.sh', inventory_id: fixture.inventory.id, ssh_key_ids: [keyIds.wrong, keyIds.extra] });
      const { status, log } = await run(withKeys.id);
      expect(status, log).toBe('success');
      expect(log).toContain('lib says: from-lib');
      expect(log).not.toContain('PRIVATE KEY');
    });

    it("gives Ansible's SSH connection the extra key after the inventory key", async () => {
      const inventory = await api('POST', '/inventory', {
        name: 'Fleet', type: 'static', ssh_key_id: keyIds.wrong,
        inventory: `target ansible_host=127.0.0.1 ansible_port=${sshd.port} ansible_user=${sshd.user} ansible_ssh_extra_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'`,
      });
      // the clone needs the extra key too: both go through the same template keys
      const deploy = await template('Deploy', { app: 'ansible', playbook: 'site.yml', inventory_id: inventory.id, ssh_key_ids: [keyIds.extra] });
      const { status, log } = await run(deploy.id);
      expect(status, log).toBe('success');
      expect(log).toContain('extra-key-42');
      await api('PUT', `/templates/${deploy.id}`, { ...(await api('GET', `/templates/${deploy.id}`)), ssh_key_ids: [] });
      const refused = await run(deploy.id);
      expect(refused.status, refused.log).toBe('error');
    });
  });
}
