import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { createRunnerApi } from '../../../src/server/host/runner-api-client.ts';

describe('in-process runner API for console pages', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('sqlite'); });
  afterAll(async () => { await s.close(); });

  it('looks the session up once per page: later calls of the same page reuse the caller, a new page checks again', async () => {
    const auth = await s.login(ADMIN.login, ADMIN.password);
    const page = createRunnerApi(s.api, '');
    expect((await page('/api/user', { headers: auth })).status).toBe(200);

    await s.deps.db.deleteFrom('session').execute();
    expect((await page('/api/projects', { headers: auth })).status).toBe(200);
    expect((await createRunnerApi(s.api, '')('/api/projects', { headers: auth })).status).toBe(401);
  });

  it('does not carry one caller over to another session in the same page', async () => {
    const auth = await s.login(ADMIN.login, ADMIN.password);
    const page = createRunnerApi(s.api, '');
    expect((await page('/api/user', { headers: auth })).status).toBe(200);
    expect((await page('/api/user', { headers: { cookie: 'semaphore=someone-else' } })).status).toBe(401);
    expect((await page('/api/user')).status).toBe(401);
  });
});
