import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTestServer } from '../support/http-test-server.ts';
import { ADMIN, type Auth, type TestServer } from '../support/harness.ts';
import { BACKUP_SECTION_LIMITS } from '../../src/server/domain/backup/backup.schema.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The largest backup restore takes: every section at its limit, items as an export writes them. */
function largestBackup() {
  const L = BACKUP_SECTION_LIMITS;
  return {
    meta: { name: 'Largest', alert: false, alert_chat: null, max_parallel_tasks: 0, type: null },
    keys: range(L.keys).map((i) => ({ name: `key-${i}`, type: i % 2 ? 'ssh' : 'none' })),
    repositories: range(L.repositories).map((i) => ({ name: `repo-${i}`, git_url: `https://git.example.test/team/repo-${i}.git`, git_branch: 'main', ssh_key: `key-${i}` })),
    inventories: range(L.inventories).map((i) => ({ name: `hosts-${i}`, inventory: `web-${i}.example.test\ndb-${i}.example.test`, ssh_key: `key-${i}`, become_key: null, type: 'static' })),
    environments: range(L.environments).map((i) => ({ name: `vars-${i}`, password: null, json: `{"region":"eu-${i}"}`, env: '{"MODE":"prod"}' })),
    views: range(L.views).map((i) => ({ title: `view-${i}`, position: i })),
    templates: range(L.templates).map((i) => ({
      name: `deploy-${i}`, app: 'ansible', playbook: `site-${i}.yml`, repository: `repo-${i}`, inventory: `hosts-${i}`, environment: `vars-${i}`,
      view: `view-${i % L.views}`, description: `Deploys service ${i}`, arguments: '[]', type: '',
      survey_vars: [{ name: 'version', title: 'Version', type: '', required: false }, { name: 'count', title: 'Count', type: 'int' }],
    })),
    schedules: range(L.schedules).map((i) => ({ template: `deploy-${i}`, name: `nightly-${i}`, cron_format: `${i % 60} 3 * * *`, active: false })),
    integrations: range(L.integrations).map((i) => ({
      name: `hook-${i}`, template: `deploy-${i}`, auth_method: 'none',
      matchers: [{ name: 'main', match_type: 'body', method: 'equals', body_data_type: 'json', key: 'ref', value: 'refs/heads/main' }],
      extract_values: [{ name: 'commit', value_source: 'body', body_data_type: 'json', key: 'after', variable: 'COMMIT', variable_type: 'environment' }],
    })),
    integration_aliases: [],
  };
}

/**
 * Watches this process's event loop with a timer every 5 ms and keeps the most main-thread CPU
 * time spent between two of its turns: how long synchronous work held the loop. CPU time, not
 * wall time, so a busy machine that pauses the whole process does not count as a block.
 */
function watchLoopBlocks(): { stop: () => number } {
  const cpuMs = () => {
    const used = (process.threadCpuUsage ?? process.cpuUsage)();
    return (used.user + used.system) / 1000;
  };
  let last = cpuMs();
  let worst = 0;
  const timer = setInterval(() => {
    const now = cpuMs();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  return { stop: () => { clearInterval(timer); return Math.max(worst, cpuMs() - last); } };
}

describe('restoring the largest allowed backup keeps the server answering (sqlite, real HTTP)', () => {
  let s: TestServer;
  let url: string;
  let close: () => Promise<void>;
  let admin: Auth;
  beforeAll(async () => {
    ({ s, url, close } = await startHttpTestServer('sqlite'));
    admin = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => { await close?.(); });

  const restore = (body: string) => fetch(`${url}/api/projects/restore`, { method: 'POST', body, headers: { ...admin, 'content-type': 'application/json' } });

  it('never blocks the event loop 100 ms while /api/ping is called every 50 ms', async () => {
    const body = JSON.stringify(largestBackup());
    const answered: number[] = [];
    const pinger = setInterval(() => {
      void fetch(`${url}/api/ping`).then(async (r) => { if ((await r.text()) === 'pong') answered.push(performance.now()); });
    }, 50);
    // this process is the server's: what holds its loop holds every request
    const blocks = watchLoopBlocks();
    const started = performance.now();
    const res = await restore(body);
    const ended = performance.now();
    const worstBlockMs = blocks.stop();
    clearInterval(pinger);

    expect(res.status, await res.clone().text()).toBe(200);
    const project = (await res.json()) as { id: number };
    const templates = await s.deps.db.selectFrom('template').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', project.id).executeTakeFirstOrThrow();
    expect(Number(templates.n)).toBe(BACKUP_SECTION_LIMITS.templates);

    const gaps = [started, ...answered.filter((t) => t > started && t < ended), ended].map((t, i, all) => (i ? t - all[i - 1]! : 0));
    const worstPingGapMs = Math.max(...gaps);
    const seen = `a ${Math.round(ended - started)} ms restore of ${body.length} bytes, ${answered.length} pings answered meanwhile`;
    expect(worstBlockMs, `worst CPU time between two turns of the event loop during ${seen}`).toBeLessThan(100);
    // Wall time: on a loaded machine the whole process waits for a core now and then, so the
    // gap is held against the restore's own length. A restore that holds the loop answers no
    // ping for most of its length.
    expect(worstPingGapMs / (ended - started), `worst gap between /api/ping answers (${Math.round(worstPingGapMs)} ms) during ${seen}`).toBeLessThan(0.5);
  });

  it('refuses a backup with a section over its limit before restoring anything', async () => {
    const backup = { ...largestBackup(), keys: range(200_000).map((i) => ({ name: `k${i}`, type: 'none' })) };
    const before = await s.deps.db.selectFrom('project').select('id').execute();
    const res = await restore(JSON.stringify(backup));
    expect([res.status, await res.text()]).toEqual([400, JSON.stringify({ error: `keys: at most ${BACKUP_SECTION_LIMITS.keys} items` })]);
    expect(await s.deps.db.selectFrom('project').select('id').execute()).toEqual(before);
  });
});
