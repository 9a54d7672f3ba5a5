import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../support/harness.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { insertProjectWithTemplate } from '../support/fixtures.ts';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

describe('the Terraform state backend under password guessing (issue 27, item 10)', () => {
  let s: TestServer;
  let stop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    s = await startTestServer('sqlite');
    stop = await listenOnLoopback(s);
    const admin: Auth = await s.login(ADMIN.login, ADMIN.password);
    const f = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
    const project = f.project.id;
    const workspace = await s.call('POST', `/api/project/${project}/inventory`, { name: 'ws', type: 'terraform-workspace', inventory: 'default', project_id: project, ssh_key_id: f.key.id }, admin);
    expect(workspace.status, workspace.text).toBe(201);
    const key = await s.call('POST', `/api/project/${project}/keys`, { name: 'tf', type: 'login_password', project_id: project, login_password: { login: 'ci', password: 'state-pass-1' } }, admin);
    const alias = await s.call('POST', `/api/project/${project}/inventory/${workspace.body.id}/terraform/aliases`, { auth_key_id: key.body.id }, admin);
    expect(alias.status, alias.text).toBe(200);
    url = alias.body.url;
  });
  afterAll(async () => {
    await stop();
    await s.close();
  });

  it('answers 429 with Retry-After once wrong passwords pile up, and then refuses the right one from that address too', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 30; i++) {
      const res = await fetch(url, { headers: basic('ci', `guess-${i}`) });
      statuses.push(res.status);
      retryAfter ??= res.headers.get('retry-after');
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect((await fetch(url, { headers: basic('ci', 'state-pass-1') })).status).toBe(429);
  });
});
