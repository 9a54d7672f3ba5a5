import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/harness.ts';
import { eventually, startHttpReceiver, type ReceivedRequest } from '../support/http-receiver.ts';
import { insertProjectWithTemplate } from '../support/fixtures.ts';
import { insertTask } from '../support/project-rows.ts';
import { startAlerts } from '../../src/server/alerts/alerts.ts';

/** What a project member controls and an alert repeats: each a piece of markup for some chat service. */
const HOSTILE = {
  author: '<!channel> [click me](https://evil.example/a) **boss**',
  project: '<!here> @all Payments',
  template: '<@U024BE7LH> [deploy](https://evil.example/b)',
  message: '<b>bold</b> & <a href="https://evil.example/c">link</a>',
  version: '1.0\n# Heading ![img](https://evil.example/d.png)',
};

describe('alert text from users is text on every chat channel (real HTTP receivers)', () => {
  let s: TestServer;
  let chat: Awaited<ReturnType<typeof startHttpReceiver>>;
  let alerts: ReturnType<typeof startAlerts>;
  const received = (path: string): ReceivedRequest => chat.received.find((r) => r.path === path)!;

  beforeAll(async () => {
    chat = await startHttpReceiver();
    s = await startTestServer('sqlite', {
      SEMAPHORE_WEB_ROOT: 'https://signalbox.example.test',
      SEMAPHORE_TELEGRAM_ALERT: 'true', SEMAPHORE_TELEGRAM_TOKEN: 'bot-token-1', SEMAPHORE_TELEGRAM_CHAT: '1000', SEMAPHORE_TELEGRAM_API_URL: `${chat.url}/tg`,
      SEMAPHORE_SLACK_ALERT: 'true', SEMAPHORE_SLACK_URL: `${chat.url}/slack`,
      SEMAPHORE_ROCKETCHAT_ALERT: 'true', SEMAPHORE_ROCKETCHAT_URL: `${chat.url}/rocket`,
      SEMAPHORE_DINGTALK_ALERT: 'true', SEMAPHORE_DINGTALK_URL: `${chat.url}/ding`,
      SEMAPHORE_GOTIFY_ALERT: 'true', SEMAPHORE_GOTIFY_URL: `${chat.url}/gotify`, SEMAPHORE_GOTIFY_TOKEN: 'gotify-app-1',
      SEMAPHORE_MICROSOFT_TEAMS_ALERT: 'true', SEMAPHORE_MICROSOFT_TEAMS_URL: `${chat.url}/teams`,
    });
    alerts = startAlerts(s.deps, { log: () => {} });
    const { db } = s.deps;
    const f = await insertProjectWithTemplate(db, { ownerId: 1, templateName: HOSTILE.template });
    await db.updateTable('project').set({ name: HOSTILE.project, alert: 1 }).where('id', '=', f.project.id).execute();
    await db.updateTable('user').set({ name: HOSTILE.author }).where('id', '=', 1).execute();
    const task = await insertTask(db, { projectId: f.project.id, templateId: f.template.id, status: 'error', userId: 1 });
    await db.updateTable('task').set({ message: HOSTILE.message, version: HOSTILE.version }).where('id', '=', task.id).execute();
    s.deps.bus.publish({ type: 'update', project_id: f.project.id, task_id: task.id, template_id: f.template.id, status: 'error', start: null, end: null, version: null });
    await eventually(() => chat.received.length === 6, 'six chat requests');
  });
  afterAll(async () => {
    alerts?.stop();
    await s?.close();
    await chat?.close();
  });

  it('Slack: & < > are entities, so <!channel>, <!here> and <@user> mention no one', () => {
    const body = JSON.stringify(received('/slack').body);
    expect(body).not.toMatch(/<[!@]/);
    expect(received('/slack').body.text).toContain('&lt;!here&gt; @all Payments');
    expect(received('/slack').body.text).toContain('&lt;!channel&gt; [click me]');
    expect(received('/slack').body.attachments[0].title).toBe('&lt;!here&gt; @all Payments / &lt;@U024BE7LH&gt; [deploy](https://evil.example/b)');
  });

  it('Telegram (HTML mode): the message is text, not tags', () => {
    const text: string = received('/tg/botbot-token-1/sendMessage').body.text;
    expect(text).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; &lt;a href="https://evil.example/c"&gt;link&lt;/a&gt;');
    expect(text).not.toMatch(/<(?!\/?b>)/);
  });

  it('DingTalk, Gotify, Rocket.Chat and Teams (markdown): no link, image, emphasis or heading comes from a user', () => {
    const texts = {
      dingtalk: received('/ding').body.markdown.text as string,
      gotify: received('/gotify/message').body.message as string,
      rocketchat: received('/rocket').body.text as string,
      teams: JSON.stringify(received('/teams').body.attachments[0].content.body),
    };
    for (const [channel, text] of Object.entries(texts)) {
      // every link or image left is the task log's own
      const links = [...text.matchAll(/(?<!\\)\[[^\]]*(?<!\\)\]\((?<url>[^)]*)\)/g)].map((m) => m.groups!.url);
      expect({ channel, links: links.filter((url) => !url.startsWith('https://signalbox.example.test/')) }).toEqual({ channel, links: [] });
      expect({ channel, raw: /(?<!\\)<|(?<!\\)\*\*boss/.test(text) }).toEqual({ channel, raw: false });
    }
    expect(texts.dingtalk).toContain('Author: \\<\\!channel\\> \\[click me\\]\\(https://evil.example/a\\) \\*\\*boss\\*\\*');
    expect(texts.gotify).toContain('Version: 1.0 # Heading \\!\\[img\\]\\(https://evil.example/d.png\\)');
    expect(texts.gotify).not.toContain('\n# Heading');
  });

  it('Rocket.Chat: @all in a name mentions no one (a word joiner follows every @)', () => {
    const rocket = JSON.stringify(received('/rocket').body);
    expect(rocket).not.toMatch(/@all|@here/);
    expect(received('/rocket').body.text).toContain('@\u2060all Payments');
  });
});
