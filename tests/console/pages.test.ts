import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';

let server: ConsoleServer;

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
    await client.signIn();
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
    await client.signIn();
    await client.get('/prefs?lang=pt_br&back=%2F');
    const page = await client.get('/project/new');
    expect(page.html).toMatch(/<summary[^>]*aria-label="[^"]*: PT-BR"/);
    expect(page.html).toContain('<span class="lang-code">UK</span>');
    expect(page.html).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u);
  });

  it('renders the confirmation dialog for deleting a project without JavaScript', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const created = await client.post('/project/new', { name: 'Scratch' });
    const id = created.location!.split('/')[2];
    const settings = await client.get(`/project/${id}/settings?confirm=delete`);
    expect(settings.html).toMatch(/<dialog open[^>]*class="[^"]*\bdialog-confirm\b/);
    expect(settings.html).toContain('Really delete the project Scratch?');
    const invalid = await client.post(`/project/${id}/settings`, { action: 'save', name: 'Scratch', max_parallel_tasks: 'many' });
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain('Max parallel tasks must be a whole number');
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
});
