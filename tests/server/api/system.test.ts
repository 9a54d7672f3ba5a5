import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { detectAnsibleVersion } from '../../../src/server/system/ansible-version.ts';

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
        version: s.deps.version, ansible: ansibleFirstLine(), web_host: 'http://localhost:3000', use_remote_runner: false,
        schedule_timezone: 'Europe/Berlin', premium_features: { project_runners: false, terraform_backend: true },
      });
      expect(res.body.ansible).not.toContain('\n');
    });
  });
}

describe('ansible version detection', () => {
  it('runs `ansible --version` once per process and reuses the answer', () => {
    expect(detectAnsibleVersion()).toBe(detectAnsibleVersion());
  });
});
