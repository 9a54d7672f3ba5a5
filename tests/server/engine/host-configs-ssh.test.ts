import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { makeSshKeyPair, serveSiteWithSubmodule, startSshd, type TestSshd } from '../../support/sshd.ts';

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - raw: echo over-ssh-$((6*7))
      register: out
    - debug:
        msg: "{{ out.stdout | trim }}"
`;

/**
 * Host configs against a real OpenSSH server on a loopback port: git clones over SSH (with a
 * submodule on the same server) and Ansible's SSH connections get the mapped key, and fail
 * without it. Needs Debian's openssh-server.
 */
describe('host configs with a real sshd (sqlite)', () => {
  let e: EngineServer;
  let sshd: TestSshd;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let keyIds: { host: number; wrong: number; none: number };
  let siteUrl: string;
  const base = () => `/api/project/${fixture.project.id}`;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await e.s.call(method, `${base()}${path}`, body, e.admin);
    expect(res.status, res.text).toBeLessThan(300);
    return res.body;
  };
  const runTemplate = async (templateId: number) => {
    const task = await api('POST', '/tasks', { template_id: templateId });
    const done = await waitForTask(e.s.deps.db, task.id, undefined, 90_000);
    return { status: done.status, log: (await taskLog(e.s.deps.db, task.id)).join('\n') };
  };
  const clearHostConfigs = async () => {
    for (const h of await api('GET', '/host_configs')) await api('DELETE', `/host_configs/${h.id}`);
  };

  beforeAll(async () => {
    const keys = mkdtempSync(join(tmpdir(), 'host-config-keys-'));
    const hostPair = makeSshKeyPair(keys, 'host');
    const wrongPair = makeSshKeyPair(keys, 'wrong');
    sshd = await startSshd([hostPair.publicKey]);
    siteUrl = serveSiteWithSubmodule(sshd, { 'run.sh': 'echo "lib says: $(cat lib/lib.txt 2>/dev/null || echo missing)"\n' });

    e = await startEngineServer('sqlite');
    fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1 });
    keyIds = {
      none: fixture.key.id,
      host: (await api('POST', '/keys', { name: 'Host key', type: 'ssh', ssh: { login: '', private_key: hostPair.privateKey } })).id,
      wrong: (await api('POST', '/keys', { name: 'Wrong key', type: 'ssh', ssh: { login: '', private_key: wrongPair.privateKey } })).id,
    };
  }, 60_000);
  afterAll(async () => { await e?.close(); sshd?.stop(); });

  const sshTemplate = async (name: string, pullSubmodules: boolean) => {
    const repo = await api('POST', '/repositories', { name, git_url: siteUrl, git_branch: 'main', ssh_key_id: keyIds.none, pull_submodules: pullSubmodules });
    return insertTemplate(e.s.deps.db, fixture.project.id, { name, app: 'bash', playbook: 'run.sh', repository_id: repo.id, inventory_id: fixture.inventory.id });
  };

  it('cannot clone over SSH with the None key and no host config', async () => {
    await clearHostConfigs();
    const { status, log } = await runTemplate((await sshTemplate('No mapping', true)).id);
    expect(status, log).toBe('error');
    expect(log).toMatch(/Permission denied|Could not read from remote repository/);
  });

  it('clones with the key of a matching git URL prefix, submodules over the same credentials', async () => {
    await clearHostConfigs();
    await api('POST', '/host_configs', { project_id: fixture.project.id, type: 'url', host: `ssh://${sshd.user}@127.0.0.1:${sshd.port}/`, ssh_key_id: keyIds.host });
    const { status, log } = await runTemplate((await sshTemplate('URL mapping', true)).id);
    expect(status, log).toBe('success');
    expect(log).toContain('lib says: from-lib');
    expect(log).not.toContain('PRIVATE KEY');
  });

  it('leaves submodules out when the repository says pull_submodules: false', async () => {
    const { status, log } = await runTemplate((await sshTemplate('Flat', false)).id);
    expect(status, log).toBe('success');
    expect(log).toContain('lib says: missing');
  });

  it('clones with the key of a matching SSH host name', async () => {
    await clearHostConfigs();
    await api('POST', '/host_configs', { type: 'host', host: '127.0.0.1', ssh_key_id: keyIds.host });
    const { status, log } = await runTemplate((await sshTemplate('Host mapping', true)).id);
    expect(status, log).toBe('success');
    expect(log).toContain('lib says: from-lib');
  });

  describe('Ansible over SSH', () => {
    let playbooks: string;
    let templateId: number;

    beforeAll(async () => {
      playbooks = createGitRepo(join(e.s.tmp, 'playbooks'), { 'deploy/site.yml': PLAYBOOK }).path;
      symlinkSync('/tmp', join(playbooks, 'escape'));
      const repo = await api('POST', '/repositories', { name: 'Playbooks', git_url: playbooks, ssh_key_id: keyIds.none });
      const inventory = await api('POST', '/inventory', {
        name: 'Fleet', type: 'static', ssh_key_id: keyIds.wrong,
        inventory: `target ansible_host=127.0.0.1 ansible_port=${sshd.port} ansible_user=${sshd.user} ansible_ssh_extra_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'`,
      });
      templateId = (await insertTemplate(e.s.deps.db, fixture.project.id, {
        name: 'Deploy', app: 'ansible', playbook: 'site.yml', working_directory: 'deploy', repository_id: repo.id, inventory_id: inventory.id,
      })).id;
    });

    it('cannot reach the host with the inventory key alone', async () => {
      await clearHostConfigs();
      const { status, log } = await runTemplate(templateId);
      expect(status, log).toBe('error');
      expect(log).toMatch(/UNREACHABLE|Permission denied/);
    });

    it("reaches it with the host config's key, running from the template's working directory", async () => {
      await clearHostConfigs();
      await api('POST', '/host_configs', { type: 'host', host: '127.0.0.1', ssh_key_id: keyIds.host });
      const { status, log } = await runTemplate(templateId);
      expect(status, log).toBe('success');
      expect(log).toContain('over-ssh-42');
    });

    it('refuses a working directory that resolves outside the checkout through a symlink', async () => {
      await e.s.deps.db.updateTable('template').set({ working_directory: 'escape' }).where('id', '=', templateId).execute();
      const { status, log } = await runTemplate(templateId);
      expect(status).toBe('error');
      expect(log).toContain('working directory "escape" resolves outside the repository');
    });
  });
});
