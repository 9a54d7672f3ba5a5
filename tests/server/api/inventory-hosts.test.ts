import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { createTestProject } from '../../support/project-members.ts';
import { commitFiles, createGitRepo } from '../../support/git-repo.ts';

const INI = [
  'solo ansible_connection=local ansible_password=inventory-secret-1',
  '[web]',
  'web1 ansible_connection=local',
  'web2',
  '[db]',
  'db1',
  '[prod:children]',
  'web',
].join('\n');

const YAML = `all:
  hosts:
    alpha: {}
  children:
    edge:
      hosts:
        beta: { ansible_connection: local }
`;

for (const dialect of DIALECTS) {
  describe(`inventory hosts read by ansible-inventory (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let noneKey: number;
    let repoPath: string;
    const call = (method: string, path: string, body?: unknown) => s.call(method, path, body, admin);
    const addInventory = async (body: Record<string, unknown>) => {
      const res = await call('POST', `${base}/inventory`, { ssh_key_id: noneKey, ...body });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base } = await createTestProject(s));
      noneKey = (await call('GET', `${base}/keys`)).body[0].id;
      repoPath = createGitRepo(join(s.tmp, 'inventories'), { 'inventories/prod.ini': '[app]\napp1\napp2\n' }).path;
    });
    afterAll(async () => { await s.close(); });

    it('lists the groups and hosts of a static INI inventory, each host with every group it is in, and no variables', async () => {
      const id = await addInventory({ name: 'Ini', type: 'static', inventory: INI });
      const res = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.hosts).toEqual([
        { name: 'db1', groups: ['db'] },
        { name: 'solo', groups: ['ungrouped'] },
        { name: 'web1', groups: ['prod', 'web'] },
        { name: 'web2', groups: ['prod', 'web'] },
      ]);
      const groups = Object.fromEntries(res.body.groups.map((g: { name: string }) => [g.name, g]));
      expect(groups.prod).toEqual({ name: 'prod', hosts: [], children: ['web'] });
      expect(groups.web.hosts).toEqual(['web1', 'web2']);
      expect(groups.all.children).toEqual(expect.arrayContaining(['ungrouped', 'db', 'prod']));
      expect(res.text).not.toContain('inventory-secret-1');
    });

    it('reads a YAML inventory', async () => {
      const id = await addInventory({ name: 'Yaml', type: 'static-yaml', inventory: YAML });
      const res = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.hosts).toEqual([{ name: 'alpha', groups: ['ungrouped'] }, { name: 'beta', groups: ['edge'] }]);
    });

    it('answers an inventory Ansible cannot parse with 400 and Ansible\'s own words; a fixed one lists again', async () => {
      const id = await addInventory({ name: 'Broken', type: 'static', inventory: '[web\nfoo bar=\n' });
      const res = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(res.status).toBe(400);
      // ansible wraps its warnings at 80 columns
      const said = res.body.error.replace(/\s+/g, ' ');
      expect(said).toContain('Unable to parse inventory as an inventory source');
      expect(said).toContain('ERROR! No inventory was parsed');
      expect(said).not.toContain('signalbox-inventory-');
      const put = await call('PUT', `${base}/inventory/${id}`, { name: 'Broken', type: 'static', inventory: '[web]\nfixed1\n', ssh_key_id: noneKey });
      expect(put.status, put.text).toBe(204);
      const again = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(again.status, again.text).toBe(200);
      expect(again.body.hosts).toEqual([{ name: 'fixed1', groups: ['web'] }]);
    });

    it('reads a file inventory from its repository and follows a new commit', async () => {
      const repo = await call('POST', `${base}/repositories`, { name: 'Inv', git_url: `file://${repoPath}`, git_branch: 'main', ssh_key_id: noneKey });
      expect(repo.status, repo.text).toBe(201);
      const id = await addInventory({ name: 'File', type: 'file', inventory: 'inventories/prod.ini', repository_id: repo.body.id });
      const first = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(first.status, first.text).toBe(200);
      expect(first.body.hosts.map((h: { name: string }) => h.name)).toEqual(['app1', 'app2']);
      commitFiles(repoPath, { 'inventories/prod.ini': '[app]\napp1\napp3\n[cache]\nredis1\n' }, 'Swap a host');
      const second = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(second.body.hosts).toEqual([{ name: 'app1', groups: ['app'] }, { name: 'app3', groups: ['app'] }, { name: 'redis1', groups: ['cache'] }]);
      expect(existsSync(join(s.deps.config.tmp_path, `inventory_hosts_${id}`))).toBe(true);
    });

    it('refuses a file that is not in the repository, and a workspace inventory', async () => {
      const repoId = (await call('GET', `${base}/repositories`)).body.find((r: { name: string }) => r.name === 'Inv').id;
      const missing = await addInventory({ name: 'Missing', type: 'file', inventory: 'nope.ini', repository_id: repoId });
      const res = await call('GET', `${base}/inventory/${missing}/hosts`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('"nope.ini" is not in the repository');
      const tf = await addInventory({ name: 'TF', type: 'terraform-workspace', inventory: 'default' });
      const tfRes = await call('GET', `${base}/inventory/${tf}/hosts`);
      expect(tfRes.status).toBe(400);
      expect(tfRes.body.error).toContain('not an Ansible inventory');
    });

    it('reads vaulted host_vars with the password vaults of the templates that run with the inventory', async () => {
      // host_vars/alpha.yml encrypted by ansible-vault itself, with the label the template's vault has
      const plain = join(s.tmp, 'vaulted');
      mkdirSync(plain, { recursive: true });
      writeFileSync(join(plain, 'pass'), 'hunter2-vault\n');
      writeFileSync(join(plain, 'alpha.yml'), 'secret_word: swordfish-7\n');
      execFileSync('ansible-vault', ['encrypt', `--vault-id=prod@${join(plain, 'pass')}`, join(plain, 'alpha.yml')], { stdio: 'pipe' });
      const vaulted = createGitRepo(join(s.tmp, 'vaulted-repo'), { 'hosts.ini': '[edge]\nalpha\nbravo\n', 'host_vars/alpha.yml': readFileSync(join(plain, 'alpha.yml'), 'utf8') });
      const repo = await call('POST', `${base}/repositories`, { name: 'Vaulted', git_url: `file://${vaulted.path}`, git_branch: 'main', ssh_key_id: noneKey });
      const id = await addInventory({ name: 'Vaulted', type: 'file', inventory: 'hosts.ini', repository_id: repo.body.id });
      const locked = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(locked.status).toBe(400);
      expect(locked.body.error).toContain('no vault secrets found');
      const key = await call('POST', `${base}/keys`, { name: 'Vault pass', type: 'login_password', login_password: { login: '', password: 'hunter2-vault' } });
      expect(key.status, key.text).toBe(201);
      const template = await call('POST', `${base}/templates`, {
        name: 'Vaulted play', app: 'ansible', playbook: 'site.yml', repository_id: repo.body.id, inventory_id: id, vaults: [{ name: 'prod', type: 'password', vault_key_id: key.body.id }],
      });
      expect(template.status, template.text).toBe(201);
      const res = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.hosts).toEqual([{ name: 'alpha', groups: ['edge'] }, { name: 'bravo', groups: ['edge'] }]);
      expect(res.text).not.toContain('swordfish-7');
      expect(res.text).not.toContain('hunter2-vault');
      // a wrong password is Ansible's error again, not a stale listing
      expect((await call('PUT', `${base}/keys/${key.body.id}`, { ...key.body, override_secret: true, login_password: { login: '', password: 'wrong' } })).status).toBe(204);
      const wrong = await call('GET', `${base}/inventory/${id}/hosts`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatch(/[Dd]ecryption failed/);
      expect(wrong.body.error).not.toContain('wrong');
    });

    it('is 404 for an inventory of another project', async () => {
      const other = await createTestProject(s, 'Other');
      const id = await addInventory({ name: 'Mine', type: 'static', inventory: 'x1\n' });
      const res = await s.call('GET', `${other.base}/inventory/${id}/hosts`, undefined, admin);
      expect(res.status).toBe(404);
    });
  });
}
