import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startPlainSmtpServer, type Mail } from '../../support/smtp-server.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProject } from '../../support/fixtures.ts';
import { loadSpec, validateAgainst } from '../../contract/openapi-spec.ts';

const spec = loadSpec();

const tokenIn = (mail: Mail) => /\/invites\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? '';

for (const dialect of DIALECTS) {
  describe(`project invites (${dialect})`, () => {
    let s: TestServer;
    let smtp: Awaited<ReturnType<typeof startPlainSmtpServer>>;
    let admin: Auth;
    let projectId: number;
    const P = () => `/api/project/${projectId}/invites`;

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
      projectId = (await insertProject(s.deps.db, 'Web')).id;
    });
    afterAll(async () => {
      await s.close();
      await smtp.close();
    });

    it("takes Semaphore's ProjectInviteRequest unchanged, mails the link, and the invitee joins with the role", async () => {
      const res = await s.call('POST', P(), { email: 'user@example.com', role: 'manager' }, admin);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ project_id: projectId, email: 'user@example.com', role: 'manager', status: 'pending', inviter_user_id: 1, email_sent: true });
      expect(res.body.inviter_user).toMatchObject({ username: ADMIN.login });
      const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThan(7.1);
      if (spec) expect(validateAgainst(spec, { $ref: '#/definitions/ProjectInvite' }, res.body)).toEqual([]);

      expect(smtp.mails).toHaveLength(1);
      const mail = smtp.mails[0]!;
      expect(mail.to).toEqual(['user@example.com']);
      expect(mail.text).toContain("Subject: Invitation to the project 'Web'");
      expect(mail.text).toContain("Admin invited you to the project 'Web' as manager.");
      const token = tokenIn(mail);
      // the mail carries a token of its own (it proves the address); the answer's is for passing on
      expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(token).not.toBe(res.body.token);
      expect(mail.text).toContain(`https://ops.example.test/invites?token=${token}`);
      // only hashes of the tokens are stored, and no later answer shows them
      for (const secret of [token, res.body.token]) {
        expect(JSON.stringify(await s.deps.db.selectFrom('project_invite').selectAll().execute())).not.toContain(secret);
        expect((await s.call('GET', P(), undefined, admin)).text).not.toContain(secret);
      }

      const invitee = await signUp('ursula', 'User@Example.com');
      expect((await s.call('GET', `/api/project/${projectId}/role`, undefined, invitee.auth)).status).toBe(404);
      expect((await s.call('POST', '/api/invites/accept', { token }, invitee.auth)).status).toBe(204);
      expect((await s.call('GET', `/api/project/${projectId}/role`, undefined, invitee.auth)).body).toMatchObject({ role: 'manager' });
      const after = await s.call('GET', `${P()}/${res.body.id}`, undefined, admin);
      expect(after.body).toMatchObject({ status: 'accepted' });
      expect(after.body.accepted_at).toMatch(/^\d{4}-/);
      const again = await s.call('POST', '/api/invites/accept', { token }, invitee.auth);
      expect([again.status, again.body.error]).toEqual([400, 'token: the invitation is accepted']);
    });

    it('invites an existing user by id: another user may not answer, the invitee declines', async () => {
      const bob = await signUp('bob', 'bob@example.com');
      const eve = await signUp('eve', 'eve@example.com');
      const res = await s.call('POST', P(), { user_id: bob.id, role: 'guest' }, admin);
      expect(res.status).toBe(201);
      expect(res.body.user).toMatchObject({ username: 'bob' });
      expect(smtp.mails.at(-1)!.to).toEqual(['bob@example.com']);
      const token = tokenIn(smtp.mails.at(-1)!);
      expect((await s.call('POST', '/api/invites/accept', { token }, eve.auth)).status).toBe(403);
      expect((await s.call('POST', '/api/invites/decline', { token }, bob.auth)).status).toBe(204);
      expect((await s.call('GET', `${P()}/${res.body.id}`, undefined, admin)).body.status).toBe('declined');
      expect((await s.call('GET', `/api/project/${projectId}/role`, undefined, bob.auth)).status).toBe(404);
      expect((await s.call('POST', '/api/invites/accept', { token: 'no-such-token' }, bob.auth)).status).toBe(404);
    });

    it.each([
      [{ role: 'manager' }, 400, 'email: give either email or user_id'],
      [{ email: 'a@example.com', user_id: 1, role: 'manager' }, 400, 'email: give either email or user_id'],
      [{ email: 'not-an-address', role: 'manager' }, 400, 'email: must be an email address'],
      [{ email: 'a@example.com', role: 'king' }, 400, 'role: must be one of'],
      [{ email: 'a@example.com', role: 'guest', expires_at: '2001-01-01T00:00:00Z' }, 400, 'expires_at: must be in the future'],
      [{ email: 'a@example.com', role: 'guest', expires_at: 'soon' }, 400, 'expires_at: must be a date-time'],
      [{ user_id: 99999, role: 'guest' }, 400, 'user_id: no user with id 99999'],
      [{ user_id: 1, role: 'guest' }, 409, 'already a member'],
    ])('refuses %j', async (body, status, error) => {
      if ((body as { user_id?: number }).user_id === 1) await s.call('POST', `/api/project/${projectId}/users`, { user_id: 1, role: 'owner' }, admin);
      const res = await s.call('POST', P(), body, admin);
      expect(res.status).toBe(status);
      expect(res.body.error).toContain(error);
    });

    it('refuses a second pending invitation for the same address; a project may decline, expire and delete one', async () => {
      const first = await s.call('POST', P(), { email: 'twice@example.com', role: 'task_runner' }, admin);
      expect((await s.call('POST', P(), { email: 'TWICE@example.com', role: 'guest' }, admin)).status).toBe(409);
      expect((await s.call('PUT', `${P()}/${first.body.id}`, { status: 'declined' }, admin)).status).toBe(204);
      expect((await s.call('PUT', `${P()}/${first.body.id}`, { status: 'pending' }, admin)).status).toBe(400);
      expect((await s.call('PUT', `${P()}/${first.body.id}`, { status: 'accepted' }, admin)).status).toBe(400);
      expect((await s.call('POST', P(), { email: 'twice@example.com', role: 'guest' }, admin)).status).toBe(201);
      expect((await s.call('DELETE', `${P()}/${first.body.id}`, undefined, admin)).status).toBe(204);
      expect((await s.call('GET', `${P()}/${first.body.id}`, undefined, admin)).status).toBe(404);
    });

    it('reads a pending invitation past its expiry as expired and refuses its token', async () => {
      const carl = await signUp('carl', 'carl@example.com');
      const res = await s.call('POST', P(), { email: 'carl@example.com', role: 'guest', expires_at: new Date(Date.now() + 3_600_000).toISOString() }, admin);
      await s.deps.db.updateTable('project_invite').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', res.body.id).execute();
      const listed = (await s.call('GET', `${P()}?sort=created&order=desc`, undefined, admin)).body as { id: number; status: string }[];
      expect(listed[0]).toMatchObject({ id: res.body.id, status: 'expired' });
      const accept = await s.call('POST', '/api/invites/accept', { token: res.body.token }, carl.auth);
      expect([accept.status, accept.body.error]).toEqual([400, 'token: the invitation is expired']);
    });

    it("offers the project's own roles: the invitee joins with one; a role the project lacks, or holding more than the inviter, is refused; a role offered cannot be deleted", async () => {
      const roles = `/api/project/${projectId}/roles`;
      expect((await s.call('POST', roles, { project_id: projectId, name: 'Operator', slug: 'operator', permissions: 1 | 16 | 32 }, admin)).status).toBe(201);
      const opal = await signUp('opal', 'opal@example.com');
      const res = await s.call('POST', P(), { user_id: opal.id, role: 'operator' }, admin);
      // (Semaphore's document lists its four roles only: a custom one is Signalbox's own)
      expect([res.status, res.body.role]).toEqual([201, 'operator']);
      // the mail names the role as people read it, not by its slug
      expect(smtp.mails.find((m) => m.to.includes('opal@example.com'))?.text).toContain("Admin invited you to the project 'Web' as Operator.");
      expect((await s.call('POST', '/api/invites/accept', { token: res.body.token }, opal.auth)).status).toBe(204);
      expect((await s.call('GET', `/api/project/${projectId}/role`, undefined, opal.auth)).body).toMatchObject({ role: 'operator', permissions: 1 | 16 | 32 });

      const other = (await insertProject(s.deps.db, 'Other')).id;
      expect((await s.call('POST', `/api/project/${other}/roles`, { project_id: other, name: 'Elsewhere', slug: 'elsewhere', permissions: 1 }, admin)).status).toBe(201);
      const foreign = await s.call('POST', P(), { email: 'far@example.com', role: 'elsewhere' }, admin);
      expect([foreign.status, foreign.body.error]).toEqual([400, 'role: must be one of owner, manager, task_runner, guest, operator']);

      // who manages the team with a custom role hands out at most their own rights
      const recruiter = await s.call('POST', roles, { project_id: projectId, name: 'Recruiter', slug: 'recruiter', permissions: 8 | 16 | 1 | 32 }, admin);
      const rita = await signUp('rita', 'rita@example.com');
      await s.call('POST', `/api/project/${projectId}/users`, { user_id: rita.id, role: 'recruiter' }, admin);
      const tooMuch = await s.call('POST', P(), { email: 'boss@example.com', role: 'owner' }, rita.auth);
      expect([tooMuch.status, tooMuch.body.error]).toEqual([400, 'role: owner holds rights you do not have']);
      expect((await s.call('POST', P(), { email: 'op2@example.com', role: 'operator' }, rita.auth)).status).toBe(201);

      // a role an open invitation offers stays until the invitation is withdrawn, so acceptance always finds it
      const temp = await s.call('POST', roles, { project_id: projectId, name: 'Temp', slug: 'temp', permissions: 1 }, admin);
      const tess = await signUp('tess', 'tess@example.com');
      const invite = await s.call('POST', P(), { user_id: tess.id, role: 'temp' }, admin);
      const kept = await s.call('DELETE', `${roles}/${temp.body.id}`, undefined, admin);
      expect([kept.status, kept.body.error]).toEqual([400, `Role Temp is offered by invite ${invite.body.id}; withdraw it first`]);
      expect((await s.call('POST', '/api/invites/accept', { token: invite.body.token }, tess.auth)).status).toBe(204);
      expect((await s.call('GET', `/api/project/${projectId}/role`, undefined, tess.auth)).body).toMatchObject({ role: 'temp', permissions: 1 });
      expect(recruiter.status).toBe(201);
    });

    it('lets only those who manage the team see and send invitations', async () => {
      const gus = await signUp('gus', 'gus@example.com');
      await s.call('POST', `/api/project/${projectId}/users`, { user_id: gus.id, role: 'guest' }, admin);
      expect((await s.call('GET', P(), undefined, gus.auth)).status).toBe(403);
      expect((await s.call('POST', P(), { email: 'x@example.com', role: 'owner' }, gus.auth)).status).toBe(403);
      expect((await s.call('POST', '/api/invites/accept', { token: 'x' })).status).toBe(401);
    });
  });
}
