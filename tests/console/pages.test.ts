import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { insertProject } from '../support/fixtures.ts';
import { hashPassword } from '../../src/server/access/password.ts';
import { now } from '../../src/server/lib/time.ts';

let server: ConsoleServer;
let users = 0;

/**
 * A user of its own for a test that stores user options (language, last project), so what one
 * test chooses never reaches another test's pages. Not an admin (an admin sees every project),
 * but allowed to create projects, so /project/new shows the shell.
 */
async function ownUser(projectIds: number[] = []): Promise<{ id: number; login: string; password: string }> {
  const login = `pages-user-${++users}`;
  const password = `${login}-password`;
  const row = await server.deps.db.insertInto('user').values({
    created: now(), username: login, name: login, email: `${login}@example.test`, password: await hashPassword(password), admin: 0, external: 0, alert: 0, can_create_project: 1,
  }).returning('id').executeTakeFirstOrThrow();
  for (const projectId of projectIds) await server.deps.db.insertInto('project_user').values({ project_id: projectId, user_id: row.id, role: 'owner', created: now() }).execute();
  return { id: row.id, login, password };
}

/** The user's stored options, without the `user<id>.` namespace. */
async function optionsOf(userId: number): Promise<Record<string, string>> {
  const rows = await server.deps.db.selectFrom('option').select(['key', 'value']).where('key', 'like', `user${userId}.%`).execute();
  return Object.fromEntries(rows.map((r) => [r.key.slice(`user${userId}.`.length), r.value]));
}

beforeAll(async () => {
  server = await startConsoleServer();
});

afterAll(async () => {
  await server?.close();
});

describe('console pages over plain HTTP', () => {
  it('sends a request without a session to sign-in and back to the page afterwards', async () => {
    const client = createClient(server.url);
    const res = await client.get('/project/7/stats?period=month');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/auth/login?next=%2Fproject%2F7%2Fstats%3Fperiod%3Dmonth');
    const login = await client.post('/auth/login?next=%2Fproject%2F7%2Fstats%3Fperiod%3Dmonth', { step: 'password', auth: ADMIN.login, password: ADMIN.password });
    expect(login.status).toBe(303);
    expect(login.location).toBe('/project/7/stats?period=month');
    expect(client.jar.has('semaphore')).toBe(true);
  });

  it('refuses an off-site next after sign-in', async () => {
    const client = createClient(server.url);
    const login = await client.post('/auth/login?next=%2F%2Fevil.example%2F', { step: 'password', auth: ADMIN.login, password: ADMIN.password });
    expect(login.location).toBe('/');
  });

  it('asks for the login and password before calling the API', async () => {
    const client = createClient(server.url);
    const res = await client.post('/auth/login', { step: 'password', auth: '', password: 'x' });
    expect(res.html).toContain('Login is required');
  });

  it('shows the too-many-attempts message when the API throttles sign-in', async () => {
    const client = createClient(server.url);
    let res = await client.post('/auth/login', { step: 'password', auth: 'nobody', password: 'wrong' });
    for (let i = 0; i < 6 && res.status !== 429; i++) res = await client.post('/auth/login', { step: 'password', auth: 'nobody', password: 'wrong' });
    expect(res.status).toBe(429);
    expect(res.html).toContain('Too many sign-in attempts');
  });

  it('sends a user without projects to /project/new and validates the project name there', async () => {
    const client = createClient(server.url);
    const user = await ownUser();
    await client.signIn(user.login, user.password);
    expect((await client.get('/')).location).toBe('/project/new');
    const empty = await client.post('/project/new', { name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('Project name is required');
    const created = await client.post('/project/new', { name: 'Payments' });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/project\/\d+\/history\?flash=project_created&name=Payments$/);
    const id = created.location!.split('/')[2];
    expect((await client.get(`/project/${id}`)).location).toBe(`/project/${id}/history`);
    expect((await client.get('/')).location).toBe(`/project/${id}/history`);
    await client.get(`/project/${id}/stats`);
    expect((await client.get('/')).location).toBe(`/project/${id}/stats`);
    const history = await client.get(created.location!);
    expect(history.html).toContain('Project Payments created');
    expect(history.html).toContain('>PA<');
  });

  it('answers 404 for a project the user cannot see', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const res = await client.get('/project/999/history');
    expect(res.status).toBe(404);
    expect(res.html).toContain('Page not found');
  });

  it('sets language and theme cookies from /prefs and goes back to a same-site path only', async () => {
    const client = createClient(server.url);
    const res = await client.get('/prefs?lang=uk&theme=dark&back=%2Fauth%2Flogin');
    expect(res.location).toBe('/auth/login');
    expect(client.jar.get('lang')).toBe('uk');
    expect(client.jar.get('theme')).toBe('dark');
    const page = await client.get('/auth/login');
    expect(page.html).toContain('<html lang="uk" data-theme="dark">');
    expect(page.html).toContain('Увійти');
    expect((await client.get('/prefs?lang=system&back=https://evil.example')).location).toBe('/');
    expect(client.jar.has('lang')).toBe(false);
  });

  it('names languages by text code in the language menu, with no flag emoji (they render as boxes on Linux)', async () => {
    const client = createClient(server.url);
    const user = await ownUser();
    await client.signIn(user.login, user.password);
    await client.get('/prefs?lang=pt_br&back=%2F');
    const page = await client.get('/project/new');
    expect(page.html).toMatch(/<summary[^>]*aria-label="[^"]*: PT-BR"/);
    expect(page.html).toContain('<span class="lang-code">UK</span>');
    expect(page.html).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u);
  });

  it('keeps a language chosen on the sign-in page at sign-in, and the latest choice of the user in every browser', async () => {
    const user = await ownUser();
    const first = createClient(server.url);
    await first.get('/prefs?lang=de&back=%2Fauth%2Flogin');
    expect(first.jar.get('lang')).toBe('de');
    // an older stored choice does not undo the one just made on the sign-in page
    await server.deps.db.insertInto('option').values({ key: `user${user.id}.ui.language`, value: 'fr' }).execute();
    await first.signIn(user.login, user.password);
    expect((await first.get('/project/new')).html).toContain('<html lang="de"');
    expect((await optionsOf(user.id))['ui.language']).toBe('de');
    expect(first.jar.has('prefs_unsaved')).toBe(false);
    // another browser (Accept-Language: en) gets the stored choice
    const second = createClient(server.url);
    await second.signIn(user.login, user.password);
    expect((await second.get('/project/new')).html).toContain('<html lang="de"');
    // a choice made there, signed in, is the user's latest: the first browser follows it
    await second.get('/prefs?lang=uk&back=%2F');
    expect((await first.get('/project/new')).html).toContain('<html lang="uk"');
    // "system" clears the choice everywhere: the browser's own language again
    await first.get('/prefs?lang=system&back=%2F');
    expect((await second.get('/project/new')).html).toContain('<html lang="en"');
    expect(second.jar.has('lang')).toBe(false);
  });

  it('remembers the project of any project page, not only of the dashboard, for `/` in any browser', async () => {
    const [alpha, beta] = [await insertProject(server.deps.db, 'Alpha'), await insertProject(server.deps.db, 'Beta')];
    const user = await ownUser([alpha.id, beta.id]);
    const first = createClient(server.url);
    await first.signIn(user.login, user.password);
    await first.get(`/project/${alpha.id}/stats`);
    for (const page of ['keys', 'templates', 'team']) {
      await first.get(`/project/${beta.id}/${page}`);
      expect([page, (await optionsOf(user.id))['nav.lastProject']]).toEqual([page, String(beta.id)]);
      await first.get(`/project/${alpha.id}/${page}`);
      expect([page, (await optionsOf(user.id))['nav.lastProject']]).toEqual([page, String(alpha.id)]);
    }
    await first.get(`/project/${beta.id}/inventory`);
    expect((await first.get('/')).location).toBe(`/project/${beta.id}/history`);
    const second = createClient(server.url);
    await second.signIn(user.login, user.password);
    expect((await second.get('/')).location).toBe(`/project/${beta.id}/history`);
    await second.get(`/project/${alpha.id}/environment`);
    expect((await first.get('/')).location).toBe(`/project/${alpha.id}/stats`);
  });

  it('renders the confirmation dialog for deleting a project without JavaScript', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const created = await client.post('/project/new', { name: 'Scratch' });
    const id = created.location!.split('/')[2];
    const settings = await client.get(`/project/${id}/settings?confirm=delete`);
    expect(settings.html).toMatch(/<dialog open[^>]*class="[^"]*\bdialog-confirm\b/);
    expect(settings.html).toContain('Really delete the project Scratch?');
    const invalid = await client.post(`/project/${id}/settings`, { _form: 'project_settings', name: 'Scratch', max_parallel_tasks: 'many' });
    expect(invalid.status).toBe(400);
    // said beside its field, and what was typed is still there
    expect(invalid.html).toMatch(/<small id="max_parallel_tasks-error" class="field-error" role="alert">Max parallel tasks must be a whole number/);
    expect(invalid.html).toMatch(/<input name="max_parallel_tasks" value="many"/);
  });

  it('renders the secret storages page and saves a storage without JavaScript, never echoing its token', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const created = await client.post('/project/new', { name: 'Storages' });
    const id = created.location!.split('/')[2];
    const empty = await client.get(`/project/${id}/storages`);
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No secret storages yet.');
    const invalid = await client.post(`/project/${id}/storages?edit=new`, { _form: 'storage', name: 'Vault', type: 'vault', url: 'nope', auth_method: 'token' });
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain('Use an http:// or https:// address');
    const saved = await client.post(`/project/${id}/storages?edit=new`, { _form: 'storage', name: 'Vault', type: 'vault', url: 'http://127.0.0.1:9', mount: 'secret', auth_method: 'token', secret: 'hvs.pages-token-4411' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/project/${id}/storages?flash=storage_saved&name=Vault`);
    const list = await client.get(saved.location!);
    expect(list.html).toContain('Secret storage Vault saved');
    expect(list.html).toContain('Not used yet');
    expect(list.html).not.toContain('hvs.pages-token-4411');
    const edit = await client.get(`/project/${id}/storages?edit=${/data-storage="(\d+)"/.exec(list.html)![1]}`);
    expect(edit.html).toContain('Leave empty to keep the stored one');
    expect(edit.html).not.toContain('hvs.pages-token-4411');
  });

  it('renders the alerts page and saves a channel without JavaScript, never echoing its URL', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const created = await client.post('/project/new', { name: 'Alerting' });
    const id = created.location!.split('/')[2];
    const empty = await client.get(`/project/${id}/alerts`);
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No alert channels yet');
    const invalid = await client.post(`/project/${id}/alerts?edit=new`, { _form: 'alert_channel', name: 'Ops', kind: 'slack', url: 'ftp://nope' });
    expect(invalid.status).toBe(400);
    // the API's refusal names its field; the console says it beside that field, as a sentence
    expect(invalid.html).toMatch(/<small id="url-error"[^>]*>Must be an http:\/\/ or https:\/\/ URL\.<\/small>/);
    expect(invalid.html).not.toContain('url: must');
    const saved = await client.post(`/project/${id}/alerts?edit=new`, { _form: 'alert_channel', name: 'Ops', kind: 'slack', url: 'https://hooks.example.test/T0/pages-token-7c2a', active: 'on' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/project/${id}/alerts?flash=alert_channel_saved&name=Ops`);
    const list = await client.get(saved.location!);
    expect(list.html).toContain('Alert channel Ops saved');
    expect(list.html).not.toContain('pages-token-7c2a');
    const edit = await client.get(`/project/${id}/alerts?edit=${/data-channel="(\d+)"/.exec(list.html)![1]}`);
    expect(edit.html).toContain('Stored: leave empty to keep it.');
    expect(edit.html).not.toContain('pages-token-7c2a');
    const hooks = await client.get(`/project/${id}/event-webhooks`);
    expect([hooks.status, hooks.html.includes('No event webhooks yet.')]).toEqual([200, true]);
  });

  it('pages the history 20 tasks at a time, newest first, and shows the last page for a page past the end', async () => {
    const fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
    const rows = Array.from({ length: 45 }, (_, i) => ({
      project_id: fx.project.id, template_id: fx.template.id, status: 'success', user_id: fx.adminId, playbook: '', environment: '{}',
      message: `run ${i}`, commit_message: '', params: '{}', created: new Date().toISOString(),
    }));
    const ids = (await server.deps.db.insertInto('task').values(rows).returning('id').execute()).map((r) => r.id).reverse();
    const client = createClient(server.url);
    await client.signIn();
    const shown = (html: string) => [...html.matchAll(/data-task="(\d+)"/g)].map((m) => Number(m[1]));
    const second = await client.get(`/project/${fx.project.id}/history?page=2`);
    expect(shown(second.html)).toEqual(ids.slice(20, 40));
    expect(second.html).toContain('Page 2 of 3');
    const past = await client.get(`/project/${fx.project.id}/history?page=9`);
    expect(shown(past.html)).toEqual(ids.slice(40));
    expect(past.html).toContain('Page 3 of 3');
  });

  it('shows the task pool in the seed\'s words: Queue for queued tasks, Local Running for tasks running here', async () => {
    const fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Pool template');
    const task = (status: string) => ({
      project_id: fx.project.id, template_id: fx.template.id, status, user_id: fx.adminId, playbook: '', environment: '{}',
      message: '', commit_message: '', params: '{}', created: new Date().toISOString(),
    });
    // the running task holds the template's one run slot, so the waiting one stays queued
    const [running, queued] = (await server.deps.db.insertInto('task').values([task('running'), task('waiting')]).returning('id').execute()).map((r) => r.id);
    try {
      const client = createClient(server.url);
      await client.signIn();
      const res = await client.get('/tasks');
      const rowOf = (id: number) => new RegExp(`#${id}</a>[\\s\\S]*?</tr>`).exec(res.html)?.[0] ?? '';
      expect(rowOf(queued!)).toContain('Queue');
      expect(rowOf(running!)).toContain('Local Running');
      expect(rowOf(running!)).toContain(fx.project.name);
      expect(res.html.indexOf(`#${queued}</a>`)).toBeLessThan(res.html.indexOf(`#${running}</a>`));
    } finally {
      await server.deps.db.updateTable('task').set({ status: 'stopped' }).where('id', 'in', [running!, queued!]).execute();
    }
  });
  it('serves the audit trail to admins at /audit and to owners under the project, with filters kept in export links', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const created = await client.post('/project/new', { name: 'Audited pages' });
    const id = created.location!.split('/')[2];
    const all = await client.get('/audit?action=create');
    expect(all.status).toBe(200);
    expect(all.html).toContain('Audit trail');
    expect(all.html).toContain('href="/api/audit/export?action=create&amp;format=csv"');
    expect(all.html).toContain('Audited pages');
    const project = await client.get(`/project/${id}/audit`);
    expect(project.status).toBe(200);
    expect(project.html).toContain(`href="/api/project/${id}/audit/export?format=jsonl"`);
  });

  it('makes a board link once on /board/tokens, opens the board with it alone, and revokes it', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const created = await client.post('/project/new', { name: 'Board pages' });
    const id = created.location!.split('/')[2]!;
    const form = await client.post('/board/tokens', { action: 'create', name: 'Lobby screen', projects: id, by: 'template' });
    expect(form.status).toBe(200);
    const link = /data-new-token>([^<]+)</.exec(form.html)?.[1] ?? '';
    expect(link).toMatch(/\/board\?token=sbb_/);
    const list = await client.get('/board/tokens');
    expect(list.html).toContain('Lobby screen');
    expect(list.html).not.toContain(link.split('token=')[1]!);
    const board = await createClient(server.url).get(new URL(link).pathname + new URL(link).search);
    expect(board.status).toBe(200);
    expect(board.html).toContain('Board pages');
    expect(board.html).not.toContain('href="/board/tokens"');
    const tokenId = /name="id" value="(\d+)"/.exec(list.html)?.[1] ?? '';
    const revoked = await client.post('/board/tokens', { action: 'delete', id: tokenId });
    expect(revoked.status).toBe(303);
    expect((await createClient(server.url).get(new URL(link).pathname + new URL(link).search)).status).toBe(401);
  });
});
