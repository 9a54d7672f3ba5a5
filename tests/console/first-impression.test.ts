import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { adminApi, insertScriptProject, waitForTask } from './support/real-tasks.ts';

let server: ConsoleServer;
let api: Awaited<ReturnType<typeof adminApi>>;

beforeAll(async () => {
  server = await startConsoleServer();
  api = await adminApi(server);
});

afterAll(async () => {
  await server?.close();
});

/** A signed-in console client for a new non-admin user. */
async function plainUser(login: string) {
  const res = await fetch(`${server.url}/api/users`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: api.cookie },
    body: JSON.stringify({ name: login, username: login, email: `${login}@example.test`, password: 'plain-password-1' }),
  });
  if (res.status !== 201) throw new Error(`user creation answered ${res.status}`);
  const client = createClient(server.url);
  const signIn = await client.post('/auth/login?next=/', { step: 'password', auth: login, password: 'plain-password-1' });
  expect(signIn.status).toBe(303);
  return { client, id: ((await res.json()) as { id: number }).id };
}

describe('a user who may not create projects', () => {
  it('is told to ask an administrator instead of seeing a form that fails', async () => {
    const { client } = await plainUser('no-projects');
    expect((await client.get('/')).location).toBe('/project/new');
    const page = await client.get('/project/new');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Ask an administrator to add you');
    expect(page.html).not.toContain('name="name"');
    expect(page.html).not.toContain('href="/project/new"');
    expect(page.html).not.toContain('href="/project/restore"');
    const before = await server.deps.db.selectFrom('project').select('id').execute();
    await client.post('/project/new', { name: 'Sneaky' });
    expect(await server.deps.db.selectFrom('project').select('id').execute()).toHaveLength(before.length);
    expect((await client.get('/project/restore')).status).toBe(404);
  });

  it('gets the 404 page for /project/new once a member of a project', async () => {
    const { client, id } = await plainUser('member-only');
    const fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
    await server.deps.db.insertInto('project_user').values({ project_id: fx.project.id, user_id: id, role: 'guest', created: new Date().toISOString() }).execute();
    expect((await client.get('/project/new')).status).toBe(404);
    const history = await client.get(`/project/${fx.project.id}/history`);
    expect(history.status).toBe(200);
    expect(history.html).not.toContain('href="/project/new"');
  });
});

/** The task log dialog: an open <dialog> with the task-log class among its others. */
const TASK_LOG_DIALOG = /<dialog open [^>]*class="[^"]*\btask-log\b/;

describe('the task log of ?t=', () => {
  it('opens over pages outside a project: active tasks and new project', async () => {
    const fx = await insertScriptProject(server, { 'run.sh': 'echo opened-over-any-page\n' }, 'run.sh');
    const taskId = await api.runTask(fx.project.id, { template_id: fx.template.id });
    await waitForTask(server.deps.db, taskId);
    const client = createClient(server.url);
    await client.signIn();
    for (const path of [`/tasks?t=${taskId}`, `/project/new?t=${taskId}`]) {
      const page = await client.get(path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toMatch(TASK_LOG_DIALOG);
      expect(page.html, path).toContain('opened-over-any-page');
    }
    const missing = await client.get('/tasks?t=999999');
    expect(missing.html).toMatch(TASK_LOG_DIALOG);
    expect(missing.html).toContain('This task does not exist or is not available.');
  });
});

describe('an autorun deploy task', () => {
  it('names the build that started it where a user would be named', async () => {
    const fx = await insertScriptProject(server, { 'build.sh': 'echo built\n', 'deploy.sh': 'echo deployed\n' }, 'build.sh', 'Build');
    const { db } = server.deps;
    await db.updateTable('template').set({ type: 'build', start_version: '1.0.0' }).where('id', '=', fx.template.id).execute();
    const deploy = await fx.addTemplate('Deploy', 'deploy.sh');
    await db.updateTable('template').set({ type: 'deploy', build_template_id: fx.template.id, autorun: 1 }).where('id', '=', deploy.id).execute();
    const buildId = await api.runTask(fx.project.id, { template_id: fx.template.id });
    await waitForTask(db, buildId);
    let deployTask: { id: number } | undefined;
    for (let i = 0; i < 100 && !deployTask; i++) {
      deployTask = await db.selectFrom('task').select('id').where('template_id', '=', deploy.id).executeTakeFirst();
      if (!deployTask) await new Promise((r) => setTimeout(r, 100));
    }
    await waitForTask(db, deployTask!.id);
    const client = createClient(server.url);
    await client.signIn();
    const history = await client.get(`/project/${fx.project.id}/history`);
    expect(history.html).toContain(`Autorun (build #${buildId})`);
    const log = await client.get(`/project/${fx.project.id}/history?t=${deployTask!.id}`);
    expect(log.html).toContain(`Autorun (build #${buildId})`);
  });
});

describe('the sign-in help', () => {
  it('names the command a fresh clone has: npm run cli', async () => {
    const page = await createClient(server.url).get('/auth/login');
    expect(page.html).toContain('npm run cli -- user add --admin');
    expect(page.html).toContain('npm run cli -- user change-by-login');
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;
    expect(scripts.cli).toContain('src/server/cli/main.ts');
  });
});

describe('the activity log', () => {
  it('names a template instead of "Template ID 4", and keeps the id once the template is deleted', async () => {
    const fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh');
    const base = `/api/project/${fx.project.id}`;
    const send = (method: string, path: string, body?: unknown) => fetch(server.url + path, {
      method, headers: { 'content-type': 'application/json', cookie: api.cookie }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const template = await (await send('POST', `${base}/templates`, {
      name: 'Nightly backup', app: 'bash', playbook: 'run.sh', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id,
    })).json() as { id: number };
    const spare = await (await send('POST', `${base}/templates`, {
      name: 'Short-lived', app: 'bash', playbook: 'run.sh', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id,
    })).json() as { id: number };
    expect((await send('DELETE', `${base}/templates/${spare.id}`)).status).toBe(204);
    // the API keeps Semaphore's wording; the console names the object
    const events = await api.get<{ object_id: number; description: string }[]>(`${base}/events`);
    expect(events.find((e) => e.object_id === template.id)?.description).toBe(`Template ID ${template.id} created`);
    const client = createClient(server.url);
    await client.signIn();
    const page = await client.get(`/project/${fx.project.id}/activity`);
    expect(page.html).toContain('Template &quot;Nightly backup&quot; created');
    expect(page.html).not.toContain(`Template ID ${template.id} created`);
    expect(page.html).toContain(`Template ID ${spare.id} deleted`);
  });
});
