// Issue 35 item 2: console pages call the runner API in-process and take the objects its routes
// answered with instead of JSON text (src/server/http/object-handover.ts). Checked against the
// same calls over HTTP on a real host server: the same status for what the API refuses, objects
// equal to what JSON.parse of the HTTP body gives, and pages that show nothing of a project the
// user cannot see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { createApi } from '../../src/server/app.ts';
import type { AppEnv } from '../../src/server/http/context.ts';
import { createRunnerApi } from '../../src/server/host/runner-api-client.ts';
import { handedOver, handoverEnv } from '../../src/server/http/object-handover.ts';
import { newCallerMemoEnv } from '../../src/server/auth/caller-memo.ts';
import { hashPassword } from '../../src/server/access/password.ts';
import { insertUser } from '../../src/server/domain/users/user.repository.ts';
import { now } from '../../src/server/lib/time.ts';

const MEMBER = { login: 'alpha-only', password: 'member-password-1' };
const SECRET = { project: 'Bravo secret project', template: 'Bravo secret template', task: 'bravo secret run' };

let server: ConsoleServer;
let api: Hono<AppEnv>;
let alpha: Awaited<ReturnType<typeof insertScriptProject>>;
let bravo: Awaited<ReturnType<typeof insertScriptProject>>;
let bravoTask: number;
let member: ReturnType<typeof createClient>;
let admin: ReturnType<typeof createClient>;
/** the member's and the admin's session cookies, as a browser would send them */
let memberCookie: string;
let adminCookie: string;

beforeAll(async () => {
  server = await startConsoleServer();
  api = createApi(server.deps);
  const { db } = server.deps;
  alpha = await insertScriptProject(server, { 'run.sh': 'echo a\n' }, 'run.sh', 'Alpha template');
  bravo = await insertScriptProject(server, { 'run.sh': 'echo b\n' }, 'run.sh', SECRET.template);
  await db.updateTable('project').set({ name: SECRET.project }).where('id', '=', bravo.project.id).execute();
  const task = (projectId: number, templateId: number, message: string) => db.insertInto('task').values({
    project_id: projectId, template_id: templateId, status: 'success', user_id: alpha.adminId, playbook: '', environment: '{}',
    message, commit_message: '', params: '{}', created: now(), start: now(), end: now(),
  }).returning('id').executeTakeFirstOrThrow();
  await task(alpha.project.id, alpha.template.id, 'alpha run');
  bravoTask = (await task(bravo.project.id, bravo.template.id, SECRET.task)).id;
  const user = await insertUser(db, {
    created: now(), username: MEMBER.login, name: 'Alpha Member', email: 'alpha@example.test', password: await hashPassword(MEMBER.password),
    admin: 0, external: 0, alert: 0,
  });
  await db.insertInto('project_user').values({ project_id: alpha.project.id, user_id: user.id, role: 'owner', created: now() }).execute();
  member = createClient(server.url);
  await member.signIn(MEMBER.login, MEMBER.password);
  admin = createClient(server.url);
  await admin.signIn();
  const cookieOf = (c: typeof member) => [...c.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  memberCookie = cookieOf(member);
  adminCookie = cookieOf(admin);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** The same GET over HTTP: status, the JSON of its body (undefined when empty), X-Total-Count. */
async function overHttp(path: string, cookie: string) {
  const res = await fetch(server.url + path, { headers: { cookie } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) as unknown : undefined, total: res.headers.get('x-total-count') };
}

/** The same GET in-process as a console page makes it, with the object and whether it came bodiless. */
async function inProcess(path: string, cookie: string) {
  const env = handoverEnv(newCallerMemoEnv());
  const res = await api.request(path, { headers: { cookie } }, env);
  const handed = handedOver(env, res);
  return { status: res.status, handed, bodiless: res.body === null, total: res.headers.get('x-total-count') };
}

const bravoPaths = () => [
  `/api/project/${bravo.project.id}`,
  `/api/project/${bravo.project.id}/tasks?offset=0&limit=20`,
  `/api/project/${bravo.project.id}/templates`,
  `/api/project/${bravo.project.id}/templates/${bravo.template.id}`,
  `/api/project/${bravo.project.id}/tasks/${bravoTask}`,
  `/api/project/${bravo.project.id}/tasks/last`,
];

describe('a page cannot read what the API would refuse', () => {
  it('in-process calls for another project get the status HTTP gets, and no object of it', async () => {
    for (const path of bravoPaths()) {
      const http = await overHttp(path, memberCookie);
      expect(http.status, path).toBeGreaterThanOrEqual(400);
      const local = await inProcess(path, memberCookie);
      expect(local.status, path).toBe(http.status);
      // an error with a message comes over as {error}, as its body says; an empty one as nothing
      expect(local.handed?.value, path).toStrictEqual(http.body);
      expect(JSON.stringify(local.handed?.value ?? '')).not.toMatch(/bravo secret/i);
      // the console's own client (runnerApi.read, what apiGet uses) answers the same
      const read = await createRunnerApi(api, '').read(path, { headers: { cookie: memberCookie } });
      expect([read.status, read.ok, read.body], path).toStrictEqual([http.status, false, http.body]);
    }
  });

  it('the same calls as the admin are answered in-process with the project\'s objects (the check above can fail)', async () => {
    for (const path of bravoPaths().slice(0, 3)) {
      const local = await inProcess(path, adminCookie);
      expect(local.status, path).toBe(200);
      expect(JSON.stringify(local.handed?.value), path).toMatch(/bravo secret/i);
    }
  });

  it('the project\'s pages show the member none of its data, where the admin sees it', async () => {
    for (const page of ['history', 'templates', 'settings']) {
      const path = `/project/${bravo.project.id}/${page}`;
      const seen = await admin.get(path);
      expect(seen.status, path).toBe(200);
      expect(seen.html, path).toMatch(/Bravo secret (template|project)|bravo secret run/);
      const refused = await member.get(path);
      expect(refused.status, path).toBeGreaterThanOrEqual(400);
      expect(refused.html, path).not.toMatch(/bravo secret/i);
    }
    const own = await member.get(`/project/${alpha.project.id}/history`);
    expect(own.status).toBe(200);
    expect(own.html).toContain('Alpha template');
    expect(own.html).not.toMatch(/bravo secret/i);
  });

  it('an HTTP client cannot ask for the handover: its answers always carry their JSON body', async () => {
    const res = await fetch(`${server.url}/api/project/${alpha.project.id}/templates`, { headers: { cookie: memberCookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json() as { name: string }[]).map((t) => t.name)).toContain('Alpha template');
  });
});

describe('a handed-over object is what JSON.parse of the HTTP body gives', () => {
  it.each([
    ['the user', () => '/api/user'],
    ['the user options', () => '/api/user/options'],
    ['the projects', () => '/api/projects'],
    ['a project', () => `/api/project/${alpha.project.id}`],
    ['the role', () => `/api/project/${alpha.project.id}/role`],
    ['the tasks list', () => `/api/project/${alpha.project.id}/tasks?offset=0&limit=20`],
    ['the tasks by cursor', () => `/api/project/${alpha.project.id}/tasks?before_id=0&limit=20`],
    ['the templates list', () => `/api/project/${alpha.project.id}/templates`],
    ['a template', () => `/api/project/${alpha.project.id}/templates/${alpha.template.id}`],
    ['the inventories', () => `/api/project/${alpha.project.id}/inventory`],
    ['the keys', () => `/api/project/${alpha.project.id}/keys`],
  ])('%s', async (_, path) => {
    const http = await overHttp(path(), memberCookie);
    expect(http.status).toBe(200);
    const local = await inProcess(path(), memberCookie);
    expect(local.status).toBe(200);
    expect(local.bodiless).toBe(true);
    expect(local.handed).toBeDefined();
    // toStrictEqual: no Date where JSON has a string, no key whose value is undefined
    expect(local.handed!.value).toStrictEqual(http.body);
    expect(local.total).toBe(http.total);
  });

  it('the console\'s client reads the same, and changing what it got changes nothing the API keeps', async () => {
    const page = createRunnerApi(api, '');
    const headers = { cookie: memberCookie };
    const first = await page.read('/api/openapi.json', { headers });
    expect(first.ok).toBe(true);
    const doc = first.body as { paths: Record<string, unknown> };
    const http = await overHttp('/api/openapi.json', memberCookie);
    expect(doc).toStrictEqual(http.body);
    for (const key of Object.keys(doc.paths)) delete doc.paths[key];
    expect((await page.read('/api/openapi.json', { headers })).body).toStrictEqual(http.body);
  });
});
