import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { countProjectRows } from '../../support/project-rows.ts';

const hasAnsible = spawnSync('ansible-playbook', ['--version']).status === 0;

for (const dialect of DIALECTS) {
  describe(`demo project (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
    });
    afterAll(async () => { await s.close(); });

    it('creates the demo resources around a local git repository with one commit on main', async () => {
      const res = await s.call('POST', '/api/projects', { name: 'My demo', demo: true }, admin);
      expect(res.status).toBe(201);
      const p = `/api/project/${res.body.id}`;
      const templates = (await s.call('GET', `${p}/templates`, undefined, admin)).body;
      expect(templates.map((t: any) => [t.name, t.type, t.app]).sort()).toEqual([
        ['Build', 'build', 'bash'], ['Deploy to Dev', 'deploy', 'bash'], ['Deploy to Production', 'deploy', 'bash'], ['Ping Site', '', 'ansible'],
      ]);
      const build = templates.find((t: any) => t.name === 'Build');
      expect(build.start_version).toBe('1.0.0');
      expect(templates.find((t: any) => t.name === 'Deploy to Dev')).toMatchObject({ autorun: true, build_template_id: build.id });
      // the demo templates satisfy the same rules as templates made through the API
      for (const t of templates) expect([t.name, (await s.call('PUT', `${p}/templates/${t.id}`, t, admin)).status]).toEqual([t.name, 204]);
      const db = s.deps.db;
      const keys = await db.selectFrom('access_key').select(['name', 'type', 'secret']).where('project_id', '=', res.body.id).orderBy('name').execute();
      expect(keys.map((k) => k.name)).toEqual(['None', 'Vault Password']);
      expect(keys[1]!.secret).not.toBeNull();
      const inventories = await db.selectFrom('inventory').select('name').where('project_id', '=', res.body.id).orderBy('name').execute();
      expect(inventories.map((i) => i.name)).toEqual(['Build', 'Dev', 'Prod']);
      const repo = await db.selectFrom('repository').selectAll().where('project_id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(repo).toMatchObject({ name: 'Demo', git_branch: 'main' });
      expect(repo.git_url).toBe(`file://${join(s.config.tmp_path, `demo_repository_${res.body.id}`)}`);

      const dir = repo.git_url.slice('file://'.length);
      expect(execFileSync('git', ['-C', dir, 'rev-list', '--count', 'main'], { encoding: 'utf8' }).trim()).toBe('1');
      const clone = join(mkdtempSync(join(s.tmp, 'clone-')), 'repo');
      execFileSync('git', ['clone', '--quiet', '--branch', 'main', repo.git_url, clone]);
      for (const file of ['ping.yml', 'build.sh', 'deploy.sh']) expect(existsSync(join(clone, file))).toBe(true);
      expect(spawnSync('bash', ['build.sh'], { cwd: clone, env: { ...process.env, SEMAPHORE_TASK_TARGET_VERSION: '1.0.0' } }).status).toBe(0);
      expect(spawnSync('bash', ['deploy.sh', 'dev'], { cwd: clone }).status).toBe(0);
    });

    it.skipIf(!hasAnsible)('ships a ping playbook that succeeds against the demo inventory', async () => {
      const res = await s.call('POST', '/api/projects', { name: 'Ansible demo', demo: true }, admin);
      const db = s.deps.db;
      const inv = await db.selectFrom('inventory').selectAll().where('project_id', '=', res.body.id).where('name', '=', 'Dev').executeTakeFirstOrThrow();
      const dir = join(s.config.tmp_path, `demo_repository_${res.body.id}`);
      const inventoryFile = join(s.tmp, `inv-${res.body.id}`);
      writeFileSync(inventoryFile, inv.inventory);
      const run = spawnSync('ansible-playbook', ['-i', inventoryFile, 'ping.yml'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ANSIBLE_NOCOLOR: '1' } });
      expect(run.stdout).toMatch(/ok=2/);
      expect(run.status).toBe(0);
    }, 120_000);

    it('creates no demo resources without the demo flag', async () => {
      const res = await s.call('POST', '/api/projects', { name: 'Plain' }, admin);
      expect((await s.call('GET', `/api/project/${res.body.id}/templates`, undefined, admin)).body).toEqual([]);
      expect(existsSync(join(s.config.tmp_path, `demo_repository_${res.body.id}`))).toBe(false);
    });

    it('leaves nothing behind when the demo flag has the wrong type', async () => {
      const before = await countProjectRows(s.deps.db);
      const res = await s.call('POST', '/api/projects', { name: 'Bad', demo: 'yes' }, admin);
      expect(res.status).toBe(400);
      expect(await countProjectRows(s.deps.db)).toEqual(before);
    });
  });
}
