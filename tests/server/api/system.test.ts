import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { detectAnsibleVersion } from '../../../src/server/system/ansible-version.ts';
import { servedFeatures } from '../../../src/server/system/premium-features.ts';

function ansibleFirstLine(): string {
  try {
    return execFileSync('ansible', ['--version'], { encoding: 'utf8', env: { ...process.env, ANSIBLE_NOCOLOR: '1' } }).split('\n')[0]!.trim();
  } catch {
    return '';
  }
}

for (const dialect of DIALECTS) {
  describe(`system info (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect, { SEMAPHORE_SCHEDULE_TIMEZONE: 'Europe/Berlin' }); });
    afterAll(async () => { await s.close(); });

    it('needs a signed-in caller', async () => {
      expect((await s.call('GET', '/api/info')).status).toBe(401);
    });

    it('reports version, the first line of `ansible --version`, web host, timezone and premium features', async () => {
      const auth = await s.login(ADMIN.login, ADMIN.password);
      const res = await s.call('GET', '/api/info', undefined, auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        // SEMAPHORE_WEB_ROOT unset: "" as Semaphore, so its UI links from the page's own origin
        version: s.deps.version, ansible: ansibleFirstLine(), web_host: '', use_remote_runner: false,
        schedule_timezone: 'Europe/Berlin',
      });
      expect(res.body.premium_features).toEqual({ project_runners: true, terraform_backend: true, task_summary: true, secret_storages: true, secret_storage_management: true });
      expect(res.body.jwt).toEqual({ enabled: false, default_ttl: 3600, max_ttl: 86400 });
      expect(res.body.ansible).not.toContain('\n');
    });

    it('sends web_host as configured when SEMAPHORE_WEB_ROOT is set', async () => {
      const configured = await startTestServer(dialect, { SEMAPHORE_WEB_ROOT: 'https://ops.example.test/' });
      try {
        const auth = await configured.login(ADMIN.login, ADMIN.password);
        expect((await configured.call('GET', '/api/info', undefined, auth)).body.web_host).toBe('https://ops.example.test');
      } finally {
        await configured.close();
      }
    });

    it('answers the lists every Semaphore form loads: runner tags (none while there are no runners) and secret storages (empty while none is made)', async () => {
      const auth = await s.login(ADMIN.login, ADMIN.password);
      const project = (await s.call('POST', '/api/projects', { name: 'Forms' }, auth)).body;
      for (const path of [`/api/project/${project.id}/runner_tags`, '/api/runner_tags', `/api/project/${project.id}/secret_storages`]) {
        const res = await s.call('GET', path, undefined, auth);
        expect([path, res.status, res.body]).toEqual([path, 200, []]);
      }
    });
  });
}

describe('premium features', () => {
  it('turns a flag on exactly when its route is mounted, whatever its parameters are called', () => {
    const none = servedFeatures([{ method: 'GET', path: '/api/project/:project_id/runner_tags' }]);
    expect(none).toEqual({ project_runners: false, terraform_backend: false, task_summary: false, secret_storages: false, secret_storage_management: false });
    const some = servedFeatures([
      { method: 'GET', path: '/api/project/:id/runners/' },
      { method: 'GET', path: '/api/terraform/:alias{[a-z0-9]+}' },
      { method: 'GET', path: '/api/project/:project_id/secret_storages' },
    ]);
    expect(some).toEqual({ project_runners: true, terraform_backend: true, task_summary: false, secret_storages: false, secret_storage_management: false });
  });
});

describe('ansible version detection', () => {
  it('runs `ansible --version` once per process and reuses the answer', () => {
    expect(detectAnsibleVersion()).toBe(detectAnsibleVersion());
  });
});
