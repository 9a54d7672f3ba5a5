import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { createClient } from '../console/support/http-client.ts';

/** `back`/`next` values that a browser would follow to another host. */
const OFF_SITE = ['/%09/evil.example:3999/x', '/%0a/evil.example', '/%0d%0a/evil.example', '/%5C/evil.example',
  '/\\evil.example', '//evil.example', 'https://evil.example/', '/%7f/evil.example', '%2F%2Fevil.example'];

describe('redirect targets from the query (real HTTP)', () => {
  let server: ConsoleServer;
  beforeAll(async () => { server = await startConsoleServer(); });
  afterAll(async () => { await server.close(); });

  it('sends /prefs?back=<off-site> to / and keeps same-origin paths', async () => {
    const client = createClient(server.url);
    for (const back of OFF_SITE) {
      const res = await client.get(`/prefs?theme=dark&back=${back}`);
      expect({ back, location: res.location }).toEqual({ back, location: '/' });
    }
    expect((await client.get('/prefs?theme=dark&back=/tasks%3Fx%3D1')).location).toBe('/tasks?x=1');
  });

  it('sends the signed-in /auth/login?next=<off-site> and the sign-in form post to /', async () => {
    const client = createClient(server.url);
    await client.signIn();
    for (const next of OFF_SITE) {
      const res = await client.get(`/auth/login?next=${next}`);
      expect({ next, location: res.location }).toEqual({ next, location: '/' });
    }
    const fresh = createClient(server.url);
    const posted = await fresh.post('/auth/login?next=/%09/evil.example:3999/x', { step: 'password', auth: 'admin', password: 'admin-password-1' });
    expect([posted.status, posted.location]).toEqual([303, '/']);
  });
});
