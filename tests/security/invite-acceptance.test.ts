import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { startPlainSmtpServer, type Mail } from '../support/smtp-server.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../support/harness.ts';
import { insertProject } from '../support/fixtures.ts';

// Issue 45, item 8: an invitation stands only while its inviter could still give its role,
// waits at most 30 days, and an email invitation goes only to someone who proved the address.
const tokenIn = (mail: Mail) => /\/invites\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? '';

for (const dialect of DIALECTS) {
  describe(`invitations: inviter, expiry and proven address (${dialect})`, () => {
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startPlainSmtpServer>>;
    let admin: Auth;
    let projectId: number;
    const P = () => `/api/project/${projectId}/invites`;
    const role = async (auth: Auth) => (await s.call('GET', `/api/project/${projectId}/role`, undefined, auth)).body?.role;

    async function signUp(username: string, email: string): Promise<{ id: number; auth: Auth }> {
      const created = await s.call('POST', '/api/users', { username, name: username, email, password: `${username}-password-1` }, admin);
      expect(created.status).toBe(201);
      return { id: created.body.id, auth: await s.login(username, `${username}-password-1`) };
    }

    beforeAll(async () => {
      smtp = await startPlainSmtpServer();
      s = await startTestServer(dialect, {
        SEMAPHORE_EMAIL_ALERT: 'true', SEMAPHORE_EMAIL_HOST: '127.0.0.1', SEMAPHORE_EMAIL_PORT: String(smtp.port),
        SEMAPHORE_EMAIL_SENDER: 'signalbox@example.test', SEMAPHORE_WEB_ROOT: 'https://ops.example.test',
      });
      admin = await s.login(ADMIN.login, ADMIN.password);
      projectId = (await insertProject(s.deps.db, 'Payments')).id;
    });
    afterAll(async () => {
      await s?.close();
      await smtp?.close();
    });

    it('refuses an acceptance once the inviter was demoted, and takes it while the inviter still owns the project', async () => {
      const olga = await signUp('olga', 'olga@example.test');
      await s.call('POST', `/api/project/${projectId}/users`, { user_id: olga.id, role: 'owner' }, admin);
      const mallory = await signUp('mallory', 'mallory@example.test');
      const nina = await signUp('nina', 'nina@example.test');
      const toMallory = await s.call('POST', P(), { user_id: mallory.id, role: 'owner' }, olga.auth);
      const toNina = await s.call('POST', P(), { user_id: nina.id, role: 'task_runner' }, olga.auth);
      expect([toMallory.status, toNina.status]).toEqual([201, 201]);

      expect((await s.call('POST', '/api/invites/accept', { token: toNina.body.token }, nina.auth)).status).toBe(204);
      expect(await role(nina.auth)).toBe('task_runner');

      expect((await s.call('PUT', `/api/project/${projectId}/users/${olga.id}`, { role: 'guest' }, admin)).status).toBe(204);
      const accepted = await s.call('POST', '/api/invites/accept', { token: toMallory.body.token }, mallory.auth);
      expect(accepted.status).toBe(403);
      expect(accepted.body.error).toContain('may no longer add owners');
      expect((await s.call('GET', `/api/project/${projectId}/role`, undefined, mallory.auth)).status).toBe(404);
      expect((await s.call('GET', `${P()}/${toMallory.body.id}`, undefined, admin)).body.status).toBe('pending');
    });

    it('refuses an expiry more than 30 days ahead (400) and takes one within', async () => {
      const far = await s.call('POST', P(), { email: 'far@example.test', role: 'guest', expires_at: '9999-12-31T00:00:00Z' }, admin);
      expect([far.status, far.body.error]).toEqual([400, 'expires_at: at most 30 days ahead']);
      const month = await s.call('POST', P(), { email: 'far@example.test', role: 'guest', expires_at: new Date(Date.now() + 31 * 86_400_000).toISOString() }, admin);
      expect(month.status).toBe(400);
      const within = await s.call('POST', P(), { email: 'far@example.test', role: 'guest', expires_at: new Date(Date.now() + 29 * 86_400_000).toISOString() }, admin);
      expect(within.status).toBe(201);
      expect(await s.deps.db.selectFrom('project_invite').select('id').where('email', '=', 'far@example.test').execute()).toHaveLength(1);
    });

    it('refuses a user who set their own email to the invited address, unless they use the link mailed to it', async () => {
      const invited = await s.call('POST', P(), { email: 'cfo@example.test', role: 'manager' }, admin);
      expect(invited.status).toBe(201);
      const mailedToken = tokenIn(smtp.mails.at(-1)!);
      expect(smtp.mails.at(-1)!.to).toEqual(['cfo@example.test']);

      const trudy = await signUp('trudy', 'trudy@example.test');
      const changed = await s.call('PUT', `/api/users/${trudy.id}`, { username: 'trudy', name: 'trudy', email: 'CFO@example.test' }, trudy.auth);
      expect(changed.status).toBe(204);
      const refused = await s.call('POST', '/api/invites/accept', { token: invited.body.token }, trudy.auth);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toContain('not verified');
      expect((await s.call('POST', '/api/invites/decline', { token: invited.body.token }, trudy.auth)).status).toBe(403);
      expect((await s.call('GET', `/api/project/${projectId}/role`, undefined, trudy.auth)).status).toBe(404);
      expect((await s.call('GET', `${P()}/${invited.body.id}`, undefined, admin)).body.status).toBe('pending');

      // the link mailed to the address proves it: whoever reads that mailbox may accept
      expect((await s.call('POST', '/api/invites/accept', { token: mailedToken }, trudy.auth)).status).toBe(204);
      expect(await role(trudy.auth)).toBe('manager');
    });

    it('takes the passed-on token from a user whose email an admin set', async () => {
      const invited = await s.call('POST', P(), { email: 'ops@example.test', role: 'guest' }, admin);
      const victor = await signUp('victor', 'ops@example.test');
      expect((await s.call('POST', '/api/invites/accept', { token: invited.body.token }, victor.auth)).status).toBe(204);
      expect(await role(victor.auth)).toBe('guest');
    });
  });
}
