import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { createTestProject, signInMember } from '../../support/project-members.ts';
import { appCommandOverride } from '../../../src/server/domain/apps/app-catalog.ts';

for (const dialect of DIALECTS) {
  describe(`apps (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let user: Auth;
    const originalPath = process.env.PATH;

    beforeAll(async () => {
      s = await startTestServer(dialect);
      let projectId: number;
      ({ admin, projectId } = await createTestProject(s));
      user = await signInMember(s, projectId, 'owner');
    });
    afterEach(() => { process.env.PATH = originalPath; });
    afterAll(async () => { await s.close(); });

    /** A PATH holding only a fake `ansible-playbook`, so detection does not depend on the machine. */
    function pathWithFakeAnsible(): string {
      const bin = join(s.tmp, 'fake-bin');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'ansible-playbook'), '#!/bin/sh\nexit 0\n');
      chmodSync(join(bin, 'ansible-playbook'), 0o755);
      return bin;
    }

    it('lists the built-in apps to any signed-in user, by priority, active when the command is on PATH', async () => {
      process.env.PATH = pathWithFakeAnsible();
      const res = await s.call('GET', '/api/apps', undefined, user);
      expect(res.status).toBe(200);
      expect(res.body.map((a: { id: string }) => a.id)).toEqual(['ansible', 'terraform', 'tofu', 'bash', 'powershell', 'python', 'pulumi']);
      const ansible = res.body[0];
      expect(ansible).toMatchObject({ id: 'ansible', active: true, priority: 1000, path: 'ansible-playbook', args: [] });
      expect(Object.keys(ansible).sort()).toEqual(['active', 'args', 'color', 'dark_color', 'icon', 'id', 'path', 'priority', 'title']);
      expect(res.body.find((a: { id: string }) => a.id === 'terraform').active).toBe(false);
      process.env.PATH = join(s.tmp, 'empty-bin');
      expect((await s.call('GET', '/api/apps', undefined, user)).body[0].active).toBe(false);
    });

    it('answers 401 to anonymous callers and 403 to non-admins on admin routes', async () => {
      expect((await s.call('GET', '/api/apps')).status).toBe(401);
      expect((await s.call('GET', '/api/apps/ansible', undefined, user)).status).toBe(403);
      expect((await s.call('POST', '/api/apps/ansible', { path: '/x' }, user)).status).toBe(403);
      expect((await s.call('PUT', '/api/apps/ansible', { path: '/x' }, user)).status).toBe(403);
      expect((await s.call('POST', '/api/apps/ansible/active', { active: false }, user)).status).toBe(403);
      expect((await s.call('DELETE', '/api/apps/custom', undefined, user)).status).toBe(403);
    });

    it('stores admin settings as apps.<id>.<field> options and uses them as the task command', async () => {
      const res = await s.call('PUT', '/api/apps/ansible', { id: 'ansible', path: '/opt/ansible/bin/ansible-playbook', args: ['-v'], title: 'Ansible' }, admin);
      expect(res.status).toBe(204);
      const options = await s.deps.db.selectFrom('option').selectAll().where('key', 'like', 'apps.ansible.%').orderBy('key').execute();
      expect(options).toEqual([
        { key: 'apps.ansible.args', value: '["-v"]' },
        { key: 'apps.ansible.path', value: '/opt/ansible/bin/ansible-playbook' },
        { key: 'apps.ansible.title', value: 'Ansible' },
      ]);
      expect((await s.call('GET', '/api/apps/ansible', undefined, admin)).body).toMatchObject({ path: '/opt/ansible/bin/ansible-playbook', args: ['-v'], title: 'Ansible' });
      expect(await appCommandOverride(s.deps.db, s.deps.config, 'ansible')).toEqual({ path: '/opt/ansible/bin/ansible-playbook', args: ['-v'] });
      expect(await appCommandOverride(s.deps.db, s.deps.config, 'python')).toEqual({ path: null, args: [] });
      await s.call('POST', '/api/apps/ansible', { path: '', args: [] }, admin);
      expect((await s.call('GET', '/api/apps/ansible', undefined, admin)).body).toMatchObject({ path: 'ansible-playbook', args: [] });
      expect(await appCommandOverride(s.deps.db, s.deps.config, 'ansible')).toEqual({ path: null, args: [] });
      // config `apps` (SEMAPHORE_APPS) is the fallback; an admin's option wins over it
      const config = { ...s.deps.config, apps: { bash: { path: '/usr/bin/env', args: ['bash'] } } };
      expect(await appCommandOverride(s.deps.db, config, 'bash')).toEqual({ path: '/usr/bin/env', args: ['bash'] });
      await s.call('PUT', '/api/apps/bash', { id: 'bash', path: '/bin/bash', args: [] }, admin);
      expect(await appCommandOverride(s.deps.db, config, 'bash')).toEqual({ path: '/bin/bash', args: ['bash'] });
    });

    it('switches an app on and off with POST /active', async () => {
      process.env.PATH = pathWithFakeAnsible();
      expect((await s.call('POST', '/api/apps/ansible/active', { active: false }, admin)).status).toBe(204);
      expect((await s.call('GET', '/api/apps/ansible', undefined, admin)).body.active).toBe(false);
      await s.call('POST', '/api/apps/python/active', { active: true }, admin);
      expect((await s.call('GET', '/api/apps/python', undefined, admin)).body.active).toBe(true);
      expect((await s.call('POST', '/api/apps/nosuch/active', { active: true }, admin)).status).toBe(404);
      expect((await s.call('POST', '/api/apps/python/active', { active: 'yes' }, admin)).status).toBe(400);
    });

    it('adds and deletes a custom app; built-in apps cannot be deleted', async () => {
      expect((await s.call('POST', '/api/apps/ruby', { title: 'Ruby Script', path: 'ruby', priority: 450, active: true }, admin)).status).toBe(204);
      const list = (await s.call('GET', '/api/apps', undefined, user)).body.map((a: { id: string }) => a.id);
      expect(list.indexOf('ruby')).toBe(list.indexOf('python') + 1);
      expect((await s.call('DELETE', '/api/apps/ruby', undefined, admin)).status).toBe(204);
      expect((await s.call('GET', '/api/apps/ruby', undefined, admin)).status).toBe(404);
      expect((await s.call('DELETE', '/api/apps/ruby', undefined, admin)).status).toBe(404);
      const builtIn = await s.call('DELETE', '/api/apps/bash', undefined, admin);
      expect(builtIn.status).toBe(400);
      expect(builtIn.body).toEqual({ error: 'Built-in apps cannot be deleted' });
    });

    it('rejects bad ids and bodies with 400', async () => {
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/apps/Bad%20Id', { title: 'x' }, 'id: required'],
        ['POST', '/api/apps/ruby', { id: 'perl' }, 'App ID in body and URL must be the same'],
        ['POST', '/api/apps/ruby', { priority: 'high' }, 'priority: '],
        ['POST', '/api/apps/ruby', { args: 'x' }, 'args: '],
        ['POST', '/api/apps/ruby', { path: 'p'.repeat(5000) }, 'path: at most 4096 characters'],
      ];
      for (const [method, path, body, message] of cases) {
        const res = await s.call(method, path, body, admin);
        expect(res.status, path).toBe(400);
        expect(res.body.error.startsWith(message), res.body.error).toBe(true);
      }
      expect((await s.call('GET', '/api/apps/ruby', undefined, admin)).status).toBe(404);
    });
  });
}
