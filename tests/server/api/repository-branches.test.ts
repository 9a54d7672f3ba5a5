import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { createTestProject } from '../../support/project-members.ts';
import { commitOnBranch, createGitRepo } from '../../support/git-repo.ts';
import { freePort, startGitDaemon } from '../../support/git-daemon.ts';

for (const dialect of DIALECTS) {
  describe(`repository branches (${dialect})`, () => {
    let s: TestServer;
    let daemon: Awaited<ReturnType<typeof startGitDaemon>>;
    let base: string;
    let admin: Record<string, string>;
    let keyId: number;
    const addRepository = async (name: string, gitUrl: string) => {
      const res = await s.call('POST', `${base}/repositories`, { name, git_url: gitUrl, git_branch: 'main', ssh_key_id: keyId }, admin);
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };

    beforeAll(async () => {
      s = await startTestServer(dialect);
      const served = join(s.tmp, 'served');
      const repo = createGitRepo(join(served, 'site.git'), { 'site.yml': '- hosts: all\n' });
      commitOnBranch(repo.path, 'feature/login', { 'login.yml': '- hosts: all\n' }, 'Login');
      commitOnBranch(repo.path, 'release-1.2', { 'notes.txt': 'v1.2\n' }, 'Release');
      daemon = await startGitDaemon(served);
      ({ base, admin } = await createTestProject(s));
      keyId = (await s.call('GET', `${base}/keys`, undefined, admin)).body[0].id;
    });
    afterAll(async () => {
      daemon?.stop();
      await s.close();
    });

    it('reads the branches of a repository served by git daemon on loopback', async () => {
      const id = await addRepository('Served', `${daemon.url}/site.git`);
      const res = await s.call('GET', `${base}/repositories/${id}/branches`, undefined, admin);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(['feature/login', 'main', 'release-1.2']);
    });

    it('reads the branches of file:// and local git repositories (the demo\'s is file://)', async () => {
      const path = join(s.tmp, 'served', 'site.git');
      for (const [name, url] of [['Local file', `file://${path}`], ['Local path', path]]) {
        const id = await addRepository(name!, url!);
        const res = await s.call('GET', `${base}/repositories/${id}/branches`, undefined, admin);
        expect(res.status, `${name}: ${res.text}`).toBe(200);
        expect(res.body).toEqual(['feature/login', 'main', 'release-1.2']);
      }
    });

    it('lists no branches for a local directory that is not a git repository', async () => {
      const id = await addRepository('Plain directory', join(s.tmp, 'served'));
      const res = await s.call('GET', `${base}/repositories/${id}/branches`, undefined, admin);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('answers 400 naming the repository when the remote cannot be read', async () => {
      const url = `git://127.0.0.1:${await freePort()}/gone.git`;
      const id = await addRepository('Gone', url);
      const res = await s.call('GET', `${base}/repositories/${id}/branches`, undefined, admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(url);
    });

    it('answers 404 for a repository of no such id', async () => {
      expect((await s.call('GET', `${base}/repositories/999999/branches`, undefined, admin)).status).toBe(404);
    });
  });
}
