import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startPlainSmtpServer } from '../../support/smtp-server.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertMember, insertProject } from '../../support/fixtures.ts';
import { startHttpReceiver } from '../../support/http-receiver.ts';

const TELEGRAM_TOKEN = 'bot-token-test-alert-5e1a';

for (const dialect of DIALECTS) {
  describe(`POST /api/project/{id}/notifications/test (${dialect})`, () => {
    let s: TestServer;
    let chat: Awaited<ReturnType<typeof startHttpReceiver>>;
    let smtp: Awaited<ReturnType<typeof startPlainSmtpServer>>;
    let admin: Auth;
    let projectId: number;

    beforeAll(async () => {
      chat = await startHttpReceiver((path) => (path === '/slack' ? 500 : 200));
      smtp = await startPlainSmtpServer();
      s = await startTestServer(dialect, {
        SEMAPHORE_WEB_ROOT: 'https://ops.example.test',
        SEMAPHORE_EMAIL_ALERT: 'true', SEMAPHORE_EMAIL_HOST: '127.0.0.1', SEMAPHORE_EMAIL_PORT: String(smtp.port), SEMAPHORE_EMAIL_SENDER: 'signalbox@example.test',
        SEMAPHORE_TELEGRAM_ALERT: 'true', SEMAPHORE_TELEGRAM_TOKEN: TELEGRAM_TOKEN, SEMAPHORE_TELEGRAM_CHAT: '1000', SEMAPHORE_TELEGRAM_API_URL: `${chat.url}/tg`,
        SEMAPHORE_SLACK_ALERT: 'true', SEMAPHORE_SLACK_URL: `${chat.url}/slack`,
        SEMAPHORE_WEBHOOK_ALERT: 'true', SEMAPHORE_WEBHOOK_URL: `${chat.url}/hook`,
      });
      admin = await s.login(ADMIN.login, ADMIN.password);
      const project = await insertProject(s.deps.db, 'Payments');
      projectId = project.id;
      // alerts on, with the project's own chat
      await s.deps.db.updateTable('project').set({ alert: 1, alert_chat: '-42' }).where('id', '=', projectId).execute();
      const listening = await insertMember(s.deps.db, projectId, 'oncall', 'guest');
      await s.deps.db.updateTable('user').set({ alert: 1 }).where('id', '=', listening.id).execute();
      await insertMember(s.deps.db, projectId, 'quiet', 'guest');
    });
    afterAll(async () => {
      await s?.close();
      await chat?.close();
      await smtp?.close();
    });

    it('takes the request as Semaphore sends it (no body, or fields it does not know) and answers how each channel took the alert', async () => {
      for (const body of [undefined, {}, { project_id: projectId, message: 'ignored' }]) {
        const before = chat.received.length;
        const res = await s.call('POST', `/api/project/${projectId}/notifications/test`, body, admin);
        expect(res.status, res.text).toBe(200);
        expect(res.body.channels).toEqual(expect.arrayContaining([
          { name: 'telegram', ok: true }, { name: 'webhook', ok: true }, { name: 'email', ok: true }, { name: 'slack', ok: false, error: 'HTTP 500' },
        ]));
        expect(res.body.channels).toHaveLength(4);
        expect(chat.received.length - before).toBe(3);
      }
      const telegram = chat.received.find((r) => r.path === `/tg/bot${TELEGRAM_TOKEN}/sendMessage`)!;
      expect(telegram.body).toMatchObject({ chat_id: '-42' });
      expect(telegram.body.text).toContain('Payments / Test alert');
      const hook = chat.received.find((r) => r.path === '/hook')!;
      expect(hook.body).toMatchObject({ project: { id: projectId, name: 'Payments' }, url: `https://ops.example.test/project/${projectId}/settings` });
      expect(hook.body.task.message).toContain('test alert');
      // mail goes to the members who asked for alerts only
      expect(smtp.mails.map((m) => m.to)).toEqual([['oncall@example.test'], ['oncall@example.test'], ['oncall@example.test']]);
      expect(smtp.mails[0]!.text).toContain('Payments / Test alert');
    });

    it("answers 409 while the project's alerts are off, as Semaphore, sending nothing", async () => {
      const quiet = await insertProject(s.deps.db, 'Alerts off');
      const before = chat.received.length;
      const res = await s.call('POST', `/api/project/${quiet.id}/notifications/test`, undefined, admin);
      expect([res.status, res.body]).toEqual([409, { error: 'Alerts are not enabled for the project' }]);
      expect(chat.received.length).toBe(before);
    });

    it('answers 502 when no channel took it, naming no secret of a channel', async () => {
      const down = await startTestServer(dialect, {
        SEMAPHORE_TELEGRAM_ALERT: 'true', SEMAPHORE_TELEGRAM_TOKEN: TELEGRAM_TOKEN, SEMAPHORE_TELEGRAM_CHAT: '1', SEMAPHORE_TELEGRAM_API_URL: 'http://127.0.0.1:9',
        SEMAPHORE_SLACK_ALERT: 'true', SEMAPHORE_SLACK_URL: `${chat.url}/slack`,
      });
      try {
        const project = await insertProject(down.deps.db, 'Quiet');
        await down.deps.db.updateTable('project').set({ alert: 1 }).where('id', '=', project.id).execute();
        const res = await down.call('POST', `/api/project/${project.id}/notifications/test`, undefined, await down.login(ADMIN.login, ADMIN.password));
        expect(res.status).toBe(502);
        expect(res.body).toEqual({
          error: 'no alert channel took the test alert',
          channels: [{ name: 'telegram', ok: false, error: 'could not reach the service' }, { name: 'slack', ok: false, error: 'HTTP 500' }],
        });
        expect(res.text).not.toContain(TELEGRAM_TOKEN);
      } finally {
        await down.close();
      }
    });

    it('answers 400 when the server has no alert channel enabled', async () => {
      const bare = await startTestServer(dialect);
      try {
        const project = await insertProject(bare.deps.db, 'Bare');
        await bare.deps.db.updateTable('project').set({ alert: 1 }).where('id', '=', project.id).execute();
        const res = await bare.call('POST', `/api/project/${project.id}/notifications/test`, undefined, await bare.login(ADMIN.login, ADMIN.password));
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/^no alert channel is enabled/);
      } finally {
        await bare.close();
      }
    });
  });
}
