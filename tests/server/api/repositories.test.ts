import { mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { countResourceRows, createTestProject } from '../../support/project-members.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`repositories (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let base: string;
    let projectId: number;
    let keyId: number;
    const call = (method: string, path: string, body?: unknown) => s.call(method, path, body, admin);

    beforeAll(async () => {
      s = await startTestServer(dialect);
      ({ admin, base, projectId } = await createTestProject(s));
      keyId = (await call('GET', `${base}/keys`)).body[0].id;
    });
    afterAll(async () => { await s.close(); });

    it('creates, reads, lists, updates and deletes a repository with the documented statuses', async () => {
      const created = await call('POST', `${base}/repositories`, { name: 'Site', project_id: projectId, git_url: ' git@github.com:org/site.git ', git_branch: 'main', ssh_key_id: keyId });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), name: 'Site', project_id: projectId, git_url: 'git@github.com:org/site.git', git_branch: 'main', ssh_key_id: keyId, pull_submodules: true });
      const id = created.body.id;
      expect((await call('GET', `${base}/repositories/${id}`)).body).toEqual(created.body);
      await call('POST', `${base}/repositories`, { name: 'Alpha', git_url: '/srv/alpha', ssh_key_id: keyId });
      const list = await call('GET', `${base}/repositories?sort=name&order=asc`);
      expect(list.body.map((r: { name: string }) => r.name)).toEqual(['Alpha', 'Site']);
      const desc = await call('GET', `${base}/repositories?sort=bogus&order=desc`);
      expect(desc.body.map((r: { name: string }) => r.name)).toEqual(['Site', 'Alpha']);
      expect((await call('PUT', `${base}/repositories/${id}`, { id, name: 'Site 2', git_url: 'https://example.com/site.git', git_branch: 'dev', ssh_key_id: keyId })).status).toBe(204);
      expect((await call('GET', `${base}/repositories/${id}`)).body).toMatchObject({ name: 'Site 2', git_url: 'https://example.com/site.git', git_branch: 'dev' });
      expect((await call('DELETE', `${base}/repositories/${id}`)).status).toBe(204);
      expect((await call('GET', `${base}/repositories/${id}`)).status).toBe(404);
      await settleAuditInbox(s.deps.db);
      const events = await s.deps.db.selectFrom('event').select('description').where('object_type', '=', 'repository').where('object_id', '=', id).orderBy('id').execute();
      expect(events.map((e) => e.description)).toEqual([
        'Repository git@github.com:org/site.git created', 'Repository https://example.com/site.git updated', 'Repository https://example.com/site.git deleted',
      ]);
    });

    it('accepts every supported URL form and keeps a local path without a branch', async () => {
      for (const url of ['file:///srv/repo.git', 'git://example.com/r.git', 'ssh://git@example.com/r.git', 'http://example.com/r.git']) {
        expect((await call('POST', `${base}/repositories`, { name: url, git_url: url, git_branch: 'main', ssh_key_id: keyId })).status).toBe(201);
      }
      const local = await call('POST', `${base}/repositories`, { name: 'Local', git_url: '/srv/local', ssh_key_id: keyId });
      expect(local.status).toBe(201);
      expect(local.body.git_branch).toBe('');
    });

    it('answers each validation rule with its message and writes nothing', async () => {
      const other = await createTestProject(s, 'Other');
      const foreignKey = (await s.call('GET', `${other.base}/keys`, undefined, admin)).body[0].id;
      const before = await countResourceRows(s);
      const valid = { name: 'R', git_url: 'https://example.com/r.git', git_branch: 'main', ssh_key_id: keyId };
      const cases: [unknown, string][] = [
        [{ ...valid, name: '' }, 'name: required'],
        [{ ...valid, git_url: '' }, 'git_url: required'],
        [{ ...valid, git_url: 'ftp://example.com/r.git' }, 'git_url: incorrect URL'],
        [{ ...valid, git_url: 'ext::sh -c id' }, 'git_url: incorrect URL'],
        [{ ...valid, git_branch: '' }, 'git_branch: required unless the URL is a local path'],
        [{ ...valid, git_branch: undefined }, 'git_branch: required unless the URL is a local path'],
        [{ ...valid, ssh_key_id: undefined }, 'ssh_key_id: required'],
        [{ ...valid, ssh_key_id: foreignKey }, 'ssh_key_id: no such key in this project'],
        [{ ...valid, ssh_key_id: '1' }, 'ssh_key_id: '],
        [{ ...valid, project_id: projectId + 1 }, 'Project ID in body and URL must be the same'],
        [{ ...valid, git_url: `https://example.com/${'a'.repeat(3000)}` }, 'git_url: at most 2048 characters'],
      ];
      for (const [body, message] of cases) {
        const res = await call('POST', `${base}/repositories`, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.error.startsWith(message), `${res.body.error} vs ${message}`).toBe(true);
      }
      expect((await call('POST', `${base}/repositories`, '[1,2')).status).toBe(400);
      expect((await call('POST', `${base}/repositories`, '[]')).status).toBe(400);
      expect(await countResourceRows(s)).toEqual(before);
    });

    it('removes cached clones of the repository when its URL changes or it is deleted, and only those', async () => {
      const repo = await call('POST', `${base}/repositories`, { name: 'Cached', git_url: 'https://example.com/c.git', git_branch: 'main', ssh_key_id: keyId });
      const id = repo.body.id;
      const tmp = s.config.tmp_path;
      const clone = (name: string) => { mkdirSync(join(tmp, name, '.git'), { recursive: true }); return join(tmp, name); };
      const own = clone(`repository_${id}_1`);
      const neighbour = clone(`repository_${id}1_1`);
      await call('PUT', `${base}/repositories/${id}`, { name: 'Renamed', git_url: 'https://example.com/c.git', git_branch: 'main', ssh_key_id: keyId });
      expect(existsSync(own)).toBe(true);
      await call('PUT', `${base}/repositories/${id}`, { name: 'Renamed', git_url: 'https://example.com/moved.git', git_branch: 'main', ssh_key_id: keyId });
      expect(existsSync(own)).toBe(false);
      const again = clone(`repository_${id}_2`);
      expect((await call('DELETE', `${base}/repositories/${id}`)).status).toBe(204);
      expect(existsSync(again)).toBe(false);
      expect(existsSync(neighbour)).toBe(true);
    });

    it('removes cached clones of repositories using a key when the key gets a new secret', async () => {
      const key = await call('POST', `${base}/keys`, { name: 'Deploy', type: 'login_password', login_password: { password: 'first-pass-1' } });
      const repo = await call('POST', `${base}/repositories`, { name: 'Private', git_url: 'https://example.com/p.git', git_branch: 'main', ssh_key_id: key.body.id });
      const clone = join(s.config.tmp_path, `repository_${repo.body.id}_1`);
      mkdirSync(clone, { recursive: true });
      await call('PUT', `${base}/keys/${key.body.id}`, { name: 'Deploy renamed' });
      expect(existsSync(clone)).toBe(true);
      await call('PUT', `${base}/keys/${key.body.id}`, { name: 'Deploy', override_secret: true, login_password: { password: 'second-pass-2' } });
      expect(existsSync(clone)).toBe(false);
    });
  });
}
