import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { eventually, startHttpReceiver } from '../../support/http-receiver.ts';
import { startAlerts } from '../../../src/server/alerts/alerts.ts';

interface Mail { from: string; to: string[]; text: string; secure: boolean; user: string }

/** A loopback SMTP server offering STARTTLS and requiring AUTH. */
async function startSmtpServer() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'smtp-pass-1') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address),
          text: Buffer.concat(chunks).toString('utf8'), secure: session.secure, user: String(session.user),
        });
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

for (const dialect of DIALECTS) {
  describe(`task alerts (${dialect})`, () => {
    let e: EngineServer;
    let chat: Awaited<ReturnType<typeof startHttpReceiver>>;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let alerts: ReturnType<typeof startAlerts>;
    let f: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const logged: string[] = [];
    const run = async (templateId: number) => {
      const res = await e.s.call('POST', `/api/project/${f.project.id}/tasks`, { template_id: templateId, message: 'nightly <run>' }, e.admin);
      expect(res.status, res.text).toBe(201);
      return (await waitForTask(e.s.deps.db, res.body.id)).id;
    };
    const hooksFor = (taskId: number) => chat.received.filter((r) => r.path === '/hook' && r.body.task.id === taskId);

    beforeAll(async () => {
      chat = await startHttpReceiver((path) => (path === '/slack' ? 500 : 200));
      smtp = await startSmtpServer();
      e = await startEngineServer(dialect, {
        SEMAPHORE_WEB_ROOT: 'https://signalbox.example.test',
        SEMAPHORE_EMAIL_ALERT: 'true', SEMAPHORE_EMAIL_HOST: '127.0.0.1', SEMAPHORE_EMAIL_PORT: String(smtp.port), SEMAPHORE_EMAIL_SECURE: 'true',
        SEMAPHORE_EMAIL_USERNAME: 'mailer', SEMAPHORE_EMAIL_PASSWORD: 'smtp-pass-1', SEMAPHORE_EMAIL_SENDER: 'signalbox@example.test',
        SEMAPHORE_TELEGRAM_ALERT: 'true', SEMAPHORE_TELEGRAM_TOKEN: 'bot-token-1', SEMAPHORE_TELEGRAM_CHAT: '1000', SEMAPHORE_TELEGRAM_API_URL: `${chat.url}/tg`,
        SEMAPHORE_SLACK_ALERT: 'true', SEMAPHORE_SLACK_URL: `${chat.url}/slack`,
        SEMAPHORE_ROCKETCHAT_ALERT: 'true', SEMAPHORE_ROCKETCHAT_URL: `${chat.url}/rocket`,
        SEMAPHORE_MICROSOFT_TEAMS_ALERT: 'true', SEMAPHORE_MICROSOFT_TEAMS_URL: `${chat.url}/teams`,
        SEMAPHORE_DINGTALK_ALERT: 'true', SEMAPHORE_DINGTALK_URL: `${chat.url}/robot/send?access_token=ding-1`,
        SEMAPHORE_GOTIFY_ALERT: 'true', SEMAPHORE_GOTIFY_URL: `${chat.url}/gotify`, SEMAPHORE_GOTIFY_TOKEN: 'gotify-app-1',
        SEMAPHORE_WEBHOOK_ALERT: 'true', SEMAPHORE_WEBHOOK_URL: `${chat.url}/hook`,
      });
      alerts = startAlerts(e.s.deps, { log: (l) => logged.push(l), smtpTls: { rejectUnauthorized: false } });
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'ok.sh': 'echo fine\n', 'fail.sh': 'exit 3\n' });
      f = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, playbook: 'fail.sh' });
      await e.s.deps.db.updateTable('project').set({ name: 'Payments', alert: 1, alert_chat: '-42' }).where('id', '=', f.project.id).execute();
      await e.s.deps.db.updateTable('user').set({ alert: 1 }).where('id', '=', 1).execute();
    });
    afterAll(async () => {
      alerts.stop();
      await e.close();
      await chat.close();
      await smtp.close();
    });

    it('sends a failed task to every channel at its documented path and shape, and mails alerting members', async () => {
      const taskId = await run(f.template.id);
      await eventually(() => hooksFor(taskId).length === 1 && smtp.mails.length === 1, 'the webhook and the mail');
      await alerts.settled();
      const link = `https://signalbox.example.test/project/${f.project.id}/templates/${f.template.id}?t=${taskId}`;
      const headline = `Payments / Fixture template: task #${taskId} ERROR by Admin`;
      const at = (path: string) => chat.received.filter((r) => r.path === path).at(-1)!;

      expect(at('/tg/botbot-token-1/sendMessage').body).toEqual({ chat_id: '-42', parse_mode: 'HTML', text: `<b>${headline}</b>\nnightly &lt;run&gt;\n${link}` });
      expect(at('/slack').body).toMatchObject({ text: headline, attachments: [{ title: 'Payments / Fixture template', title_link: link, color: '#c62828' }] });
      expect(at('/rocket').body).toMatchObject({ text: headline, attachments: [{ title_link: link }] });
      const card = at('/teams').body.attachments[0];
      expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
      expect(card.content.body[1].facts).toEqual(expect.arrayContaining([{ title: 'Project', value: 'Payments' }, { title: 'Status', value: 'error' }, { title: 'Author', value: 'Admin' }]));
      expect(card.content.actions[0].url).toBe(link);
      expect(at('/robot/send?access_token=ding-1').body).toMatchObject({ msgtype: 'markdown', markdown: { title: headline } });
      expect(at('/robot/send?access_token=ding-1').body.markdown.text).toContain(`(${link})`);
      const gotify = at('/gotify/message');
      expect(gotify.headers['x-gotify-key']).toBe('gotify-app-1');
      expect(gotify.body).toMatchObject({ title: headline, extras: { 'client::display': { contentType: 'text/markdown' } } });
      expect(hooksFor(taskId)[0]!.body).toEqual({
        event: 'task_status', status: 'error', url: link, author: 'Admin',
        project: { id: f.project.id, name: 'Payments' }, template: { id: f.template.id, name: 'Fixture template' },
        task: { id: taskId, status: 'error', message: 'nightly <run>', version: null },
      });

      const mail = smtp.mails[0]!;
      expect(mail).toMatchObject({ from: 'signalbox@example.test', to: ['admin@example.test'], secure: true, user: 'mailer' });
      expect(mail.text).toContain("Subject: Task 'Fixture template' failed");
      expect(mail.text).toContain(headline);
      expect(mail.text).toContain(link);
      // Slack answered 500: logged, and the task's outcome is untouched.
      expect(logged).toContain(`task ${taskId}: slack alert failed: HTTP 500`);
      expect((await e.s.deps.db.selectFrom('task').select('status').where('id', '=', taskId).executeTakeFirstOrThrow()).status).toBe('error');
    });

    it('mutes success when the template suppresses it, mails only failures, and survives an unreachable channel', async () => {
      const quiet = await insertTemplate(e.s.deps.db, f.project.id, { name: 'Quiet', playbook: 'ok.sh', repository_id: f.repository.id, inventory_id: f.inventory.id, suppress_success_alerts: 1 });
      const loud = await insertTemplate(e.s.deps.db, f.project.id, { name: 'Loud', playbook: 'ok.sh', repository_id: f.repository.id, inventory_id: f.inventory.id });
      e.s.config.alerts.gotify.url = 'http://127.0.0.1:1';
      const mailsBefore = smtp.mails.length;
      const quietTask = await run(quiet.id);
      const loudTask = await run(loud.id);
      await eventually(() => hooksFor(loudTask).length === 1, 'the success webhook');
      await alerts.settled();
      expect(hooksFor(quietTask)).toEqual([]);
      expect(hooksFor(loudTask)[0]!.body.status).toBe('success');
      expect(smtp.mails.length).toBe(mailsBefore);
      expect(logged.some((l) => l.startsWith(`task ${loudTask}: gotify alert failed:`))).toBe(true);
      expect(logged.join('\n')).not.toContain('gotify-app-1');
      expect(logged.join('\n')).not.toContain('bot-token-1');

      await e.s.deps.db.updateTable('project').set({ alert: 0 }).where('id', '=', f.project.id).execute();
      const silent = await run(loud.id);
      await new Promise((r) => setTimeout(r, 200));
      await alerts.settled();
      expect(hooksFor(silent)).toEqual([]);
    });
  });
}
