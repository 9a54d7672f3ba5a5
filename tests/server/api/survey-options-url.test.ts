import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld, type World } from '../../support/world.ts';

/** A service that lists regions (Basic auth `ops:list-pass-1` required), a broken one, and one that answers no list. */
async function startOptionsService(): Promise<{ url: string; hits: () => number; setRegions: (r: unknown) => void; stop: () => Promise<void> }> {
  let regions: unknown = ['eu-west', { name: 'US East', value: 'us-east' }];
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    if (req.url === '/broken') return void res.writeHead(500).end('oops');
    if (req.url === '/not-a-list') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"regions": 1}');
    if (req.headers.authorization !== `Basic ${Buffer.from('ops:list-pass-1').toString('base64')}`) return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(regions));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, hits: () => hits, setRegions: (r) => { regions = r; },
    stop: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * Survey options from a URL (issue 51, item 5; Semaphore #3880): an enum survey variable may read
 * its choices from a URL with a project key for auth, fetched when the launch dialog asks, kept
 * briefly, with the reason when the source fails; a launch's answer must be one of them.
 */
for (const dialect of DIALECTS) {
  describe(`enum survey options from a URL (${dialect})`, () => {
    let s: TestServer;
    let w: World;
    let service: Awaited<ReturnType<typeof startOptionsService>>;
    let templateId = 0;
    let refs: Record<string, number> = {};
    const api = (method: string, path: string, body?: unknown, who: keyof World['auth'] = 'owner') => s.call(method, `/api/project/${w.projectId}${path}`, body, w.auth[who]);
    const surveyOf = (keyId: number) => [
      { name: 'region', title: 'Region', type: 'enum', required: true, values: [], values_url: `${service.url}/regions`, values_url_key_id: keyId },
      { name: 'zone', title: 'Zone', type: 'enum', values: [], values_url: `${service.url}/broken` },
      { name: 'tier', title: 'Tier', type: 'enum', values: [], values_url: `${service.url}/not-a-list` },
    ];

    beforeAll(async () => {
      service = await startOptionsService();
      process.env.SURVEY_LIST_PASSWORD = 'list-pass-1';
      s = await startTestServer(dialect, { SEMAPHORE_SECRET_SOURCES_ENV: 'SURVEY_LIST_*' });
      w = await buildWorld(s.deps.db);
      const made = async (path: string, body: Record<string, unknown>) => {
        const res = await api('POST', path, { ...body, project_id: w.projectId });
        expect(res.status, res.text).toBe(201);
        return res.body.id as number;
      };
      const none = await made('/keys', { name: 'None', type: 'none' });
      refs = {
        listKey: await made('/keys', { name: 'Region list', type: 'login_password', login_password: { login: 'ops', password: 'list-pass-1' } }),
        repository: await made('/repositories', { name: 'Repo', git_url: 'https://git.example.test/r.git', git_branch: 'main', ssh_key_id: none }),
        inventory: await made('/inventory', { name: 'Local', type: 'static', inventory: 'localhost', ssh_key_id: none }),
        environment: await made('/environment', { name: 'Empty', json: '{}' }),
      };
      templateId = await made('/templates', {
        name: 'Deploy', app: 'bash', playbook: 'deploy.sh', repository_id: refs.repository, inventory_id: refs.inventory, environment_id: refs.environment,
        survey_vars: surveyOf(refs.listKey!),
      });
    });
    afterAll(async () => {
      await s?.close();
      await service?.stop();
    });

    it('keeps values_url and its key on the template; an enum with a URL needs no values', async () => {
      const template = (await api('GET', `/templates/${templateId}`)).body;
      expect(template.survey_vars[0]).toMatchObject({ values_url: `${service.url}/regions`, values_url_key_id: refs.listKey });
    });

    it('refuses a URL that is not http(s) and a key of another project', async () => {
      const bad = await api('PUT', `/templates/${templateId}`, { survey_vars: [{ name: 'x', type: 'enum', values: [], values_url: 'file:///etc/passwd' }] });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/survey_vars\[0\]\.values_url/);
      const stranger = await api('PUT', `/templates/${templateId}`, { survey_vars: [{ name: 'x', type: 'enum', values: [], values_url: `${service.url}/regions`, values_url_key_id: 999_999 }] });
      expect(stranger.status).toBe(400);
      expect(stranger.body.error).toMatch(/values_url_key_id/);
    });

    it('answers each variable\'s choices (the key sent as Basic auth), or the reason the source failed, to any member', async () => {
      const res = await api('GET', `/templates/${templateId}/survey_options`, undefined, 'guest');
      expect(res.status, res.text).toBe(200);
      expect(res.body.region).toEqual({ values: [{ name: 'eu-west', value: 'eu-west' }, { name: 'US East', value: 'us-east' }] });
      expect(res.body.zone).toEqual({ error: 'the options URL answered 500' });
      expect(res.body.tier.error).toMatch(/JSON list/);
    });

    it('a key read from a server variable sends that value as the password', async () => {
      const key = await api('POST', '/keys', {
        name: 'From env', type: 'login_password', login_password: { login: 'ops' }, source_storage_type: 'env', source_storage_key: 'SURVEY_LIST_PASSWORD', project_id: w.projectId,
      });
      expect(key.status, key.text).toBe(201);
      const made = await api('POST', '/templates', {
        name: 'Env keyed', app: 'bash', playbook: 'deploy.sh', repository_id: refs.repository, inventory_id: refs.inventory, environment_id: refs.environment, project_id: w.projectId,
        survey_vars: [{ name: 'region', title: 'Region', type: 'enum', values: [], values_url: `${service.url}/regions?env`, values_url_key_id: key.body.id }],
      });
      expect(made.status, made.text).toBe(201);
      const res = await api('GET', `/templates/${made.body.id}/survey_options`);
      expect(res.body.region.values?.map((o: { value: string }) => o.value), JSON.stringify(res.body)).toEqual(['eu-west', 'us-east']);
    });

    it('keeps fetched choices briefly: asking again does not reach the service', async () => {
      await api('GET', `/templates/${templateId}/survey_options`);
      const before = service.hits();
      await api('GET', `/templates/${templateId}/survey_options`);
      // only the two failing sources are asked again
      expect(service.hits()).toBe(before + 2);
    });

    it('a launch answer must be one of the choices the URL gave', async () => {
      const start = (region: string) => api('POST', '/tasks', { template_id: templateId, environment: JSON.stringify({ region }) }, 'task_runner');
      const refused = await start('mars-1');
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('Region must be one of: eu-west, us-east');
      const ok = await start('us-east');
      expect(ok.status, ok.text).toBe(201);
    });

    it('a launch answering a variable whose source fails is refused, saying why', async () => {
      const res = await api('POST', '/tasks', { template_id: templateId, environment: JSON.stringify({ region: 'eu-west', zone: 'a' }) }, 'task_runner');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Zone: its choices could not be loaded from their URL (the options URL answered 500)');
    });
  });
}
