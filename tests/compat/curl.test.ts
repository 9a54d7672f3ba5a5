import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../support/dialects.ts';
import { ADMIN, run, startCompatServer, type CompatServer } from './support/compat-server.ts';

/** One curl call as a script writer types it: `-s`, the arguments, nothing else; the status comes from `-w`. */
async function curl(...args: string[]): Promise<{ status: number; body: any; text: string }> {
  const { code, stdout, stderr } = await run('curl', ['-s', '-w', '\n%{http_code}', ...args]);
  if (code !== 0) throw new Error(`curl ${args.join(' ')} exited ${code}: ${stderr}`);
  const cut = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, cut);
  let body: unknown;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  return { status: Number(stdout.slice(cut + 1)), body, text };
}

/** The `semaphore` cookie's value in a curl cookie jar (tab-separated Netscape format). */
const sessionCookie = (jar: string) => /\tsemaphore\t(\S+)/.exec(readFileSync(jar, 'utf8'))?.[1];

const REFUSED = { error: 'Content-Type must be application/json' };

for (const dialect of DIALECTS) {
  describe(`plain curl, no extra headers (${dialect})`, () => {
    let server: CompatServer;
    let jars = 0;
    beforeAll(async () => { server = await startCompatServer(dialect); });
    afterAll(async () => { await server?.close(); });

    /** Signs in with `--json` into a fresh cookie jar; answers curl's `-b` argument for it. */
    async function signIn(): Promise<string> {
      const jar = join(server.s.tmp, `jar-${++jars}`);
      const res = await curl('--json', JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }), '-c', jar, `${server.url}/api/auth/login`);
      expect([res.status, res.text]).toEqual([204, '']);
      return jar;
    }

    async function newToken(jar: string): Promise<string> {
      const res = await curl('-b', jar, '-X', 'POST', `${server.url}/api/user/tokens`);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.stringMatching(/^[\w=-]{20,}$/), expired: false });
      return res.body.id;
    }

    it('creates an API token with a bodyless POST, uses it as a bearer for the whole life of a project, and deletes the token with a bodyless DELETE', async () => {
      const jar = await signIn();
      const token = await newToken(jar);
      const bearer = ['-H', `Authorization: Bearer ${token}`];
      const project = await curl(...bearer, '--json', '{"name":"Curl project"}', `${server.url}/api/projects`);
      expect(project.status).toBe(201);
      expect(project.body).toMatchObject({ name: 'Curl project', id: expect.any(Number) });
      const p = `${server.url}/api/project/${project.body.id}`;
      const key = await curl(...bearer, '--json', '{"name":"None","type":"none"}', `${p}/keys`);
      expect([key.status, key.body?.name]).toEqual([201, 'None']);
      const repo = await curl(...bearer, '--json', JSON.stringify({ name: 'Scripts', git_url: server.repoUrl, git_branch: 'main', ssh_key_id: key.body.id }), `${p}/repositories`);
      expect([repo.status, repo.body?.git_url]).toEqual([201, server.repoUrl]);
      const template = await curl(...bearer, '--json', JSON.stringify({ name: 'Hello', app: 'bash', playbook: 'hello.sh', repository_id: repo.body.id }), `${p}/templates`);
      expect([template.status, template.body?.playbook]).toEqual([201, 'hello.sh']);

      for (const path of [`templates/${template.body.id}`, `repositories/${repo.body.id}`, `keys/${key.body.id}`]) {
        const deleted = await curl(...bearer, '-X', 'DELETE', `${p}/${path}`);
        expect([path, deleted.status, deleted.text]).toEqual([path, 204, '']);
        expect((await curl(...bearer, `${p}/${path}`)).status).toBe(404);
      }
      const gone = await curl(...bearer, '-X', 'DELETE', p);
      expect([gone.status, gone.text]).toEqual([204, '']);
      expect((await curl(...bearer, p)).status).toBe(404);

      const tokenId = (await curl('-b', jar, `${server.url}/api/user/tokens`)).body.find((t: { id: string }) => token.startsWith(t.id)).id;
      const revoked = await curl('-b', jar, '-X', 'DELETE', `${server.url}/api/user/tokens/${tokenId}`);
      expect([revoked.status, revoked.text]).toEqual([204, '']);
      expect((await curl(...bearer, `${server.url}/api/user`)).status).toBe(401);
    });

    it('reads a `-d` body as JSON whatever curl labels it, as Semaphore does: sign-in and a project; a form body is a 400', async () => {
      // curl -d labels the body application/x-www-form-urlencoded; no browser sent it
      const login = await curl('-c', join(server.s.tmp, `jar-${++jars}`), '-d', JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }), `${server.url}/api/auth/login`);
      expect([login.status, login.text]).toEqual([204, '']);
      const jar = await signIn();
      const labelled = await curl('-b', jar, '-d', '{"name":"From -d"}', `${server.url}/api/projects`);
      expect([labelled.status, labelled.body?.name]).toEqual([201, 'From -d']);
      const typed = await curl('-b', jar, '-H', 'Content-Type: text/plain', '--data-binary', '{"name":"From text"}', `${server.url}/api/projects`);
      expect([typed.status, typed.body?.name]).toEqual([201, 'From text']);
      const form = await curl('-b', jar, '-d', 'name=Form', `${server.url}/api/projects`);
      expect([form.status, form.body]).toEqual([400, { error: 'body: not valid JSON' }]);
      expect(await server.s.deps.db.selectFrom('project').select('id').where('name', '=', 'Form').execute()).toEqual([]);
    });

    it('refuses a body that is not labelled JSON when a browser sends it (Origin or Sec-Fetch-* present), creating nothing', async () => {
      const jar = await signIn();
      for (const sign of ['Sec-Fetch-Site: same-origin', `Origin: ${server.url}`]) {
        const typed = await curl('-b', jar, '-H', sign, '-H', 'Content-Type: text/plain', '--data-binary', '{"name":"Forged"}', `${server.url}/api/projects`);
        expect([typed.status, typed.body]).toEqual([415, REFUSED]);
      }
      const foreign = await curl('-b', jar, '-H', 'Origin: https://evil.example', '-H', 'Content-Type: text/plain', '--data-binary', '{"name":"Forged"}', `${server.url}/api/projects`);
      expect(foreign.status).toBe(415);
      const foreignJson = await curl('-b', jar, '-H', 'Origin: https://evil.example', '--json', '{"name":"Forged"}', `${server.url}/api/projects`);
      expect(foreignJson.status).toBe(403);
      expect(await server.s.deps.db.selectFrom('project').select('id').where('name', '=', 'Forged').execute()).toEqual([]);
      const json = await curl('-b', jar, '--json', '{"name":"Forged"}', `${server.url}/api/projects`);
      expect([json.status, json.body?.name]).toEqual([201, 'Forged']);
    });

    it('takes an empty body whatever curl labels it: `-d \'\'` (Content-Length: 0) and an empty chunked body', async () => {
      const jar = await signIn();
      const empty = await curl('-b', jar, '-d', '', `${server.url}/api/user/tokens`);
      expect([empty.status, typeof empty.body?.id]).toEqual([201, 'string']);
      const chunked = await curl('-b', jar, '-H', 'Transfer-Encoding: chunked', '--data-binary', '', `${server.url}/api/user/tokens`);
      expect([chunked.status, typeof chunked.body?.id]).toEqual([201, 'string']);
      const chunkedForm = await curl('-b', jar, '-H', 'Sec-Fetch-Site: same-origin', '-H', 'Transfer-Encoding: chunked', '-d', 'name=Forged chunk', `${server.url}/api/projects`);
      expect([chunkedForm.status, chunkedForm.body]).toEqual([415, REFUSED]);
      // a label with nothing under it: a bodyless DELETE that says text/plain
      const tokenId = (await curl('-b', jar, `${server.url}/api/user/tokens`)).body.find((t: { id: string }) => empty.body.id.startsWith(t.id)).id;
      const labelled = await curl('-b', jar, '-X', 'DELETE', '-H', 'Content-Type: text/plain', `${server.url}/api/user/tokens/${tokenId}`);
      expect([labelled.status, labelled.text]).toEqual([204, '']);
    });

    it('stops a running task with a bodyless POST …/stop, and another from the active tasks list with a bodyless DELETE /api/tasks/{id}', async () => {
      const jar = await signIn();
      const project = (await curl('-b', jar, '--json', '{"name":"Stop project"}', `${server.url}/api/projects`)).body;
      const p = `${server.url}/api/project/${project.id}`;
      const key = (await curl('-b', jar, '--json', '{"name":"None","type":"none"}', `${p}/keys`)).body;
      const repo = (await curl('-b', jar, '--json', JSON.stringify({ name: 'Scripts', git_url: server.repoUrl, git_branch: 'main', ssh_key_id: key.id }), `${p}/repositories`)).body;
      const template = (await curl('-b', jar, '--json', JSON.stringify({ name: 'Slow', app: 'bash', playbook: 'slow.sh', repository_id: repo.id }), `${p}/templates`)).body;
      for (const stop of [(id: number) => ['-X', 'POST', `${p}/tasks/${id}/stop`], (id: number) => ['-X', 'DELETE', `${server.url}/api/tasks/${id}`]]) {
        const task = await curl('-b', jar, '--json', JSON.stringify({ template_id: template.id }), `${p}/tasks`);
        expect([task.status, task.body?.status]).toEqual([201, 'waiting']);
        const stopped = await curl('-b', jar, ...stop(task.body.id));
        expect([stopped.status, stopped.text]).toEqual([204, '']);
        await expect.poll(async () => (await curl('-b', jar, `${p}/tasks/${task.body.id}`)).body.status, { timeout: 30_000 }).toBe('stopped');
      }
    });

    it('ends the session with a bodyless POST /api/auth/logout, and with one that carries a form body', async () => {
      for (const extra of [[], ['-d', 'bye=1']]) {
        const jar = await signIn();
        expect((await curl('-b', jar, `${server.url}/api/user`)).body?.username).toBe(ADMIN.login);
        const before = sessionCookie(jar);
        expect(before).toMatch(/.{20,}/);
        const out = await curl('-b', jar, '-c', jar, '-X', 'POST', ...extra, `${server.url}/api/auth/logout`);
        expect([out.status, out.text]).toEqual([204, '']);
        expect(sessionCookie(jar)).toBeUndefined();
        expect((await curl('-b', jar, `${server.url}/api/user`)).status).toBe(401);
        // the server ended the session: the cookie it had is refused too, not only forgotten by curl
        expect((await curl('-H', `Cookie: semaphore=${before}`, `${server.url}/api/user`)).status).toBe(401);
      }
    });
  });
}
