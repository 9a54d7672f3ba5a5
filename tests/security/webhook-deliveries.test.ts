import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpTestServer } from '../support/http-test-server.ts';
import type { TestServer } from '../support/harness.ts';
import { ADMIN } from '../support/harness.ts';
import { insertAdminProject, insertIntegration, listDeliveryRows } from '../support/trigger-fixtures.ts';

const DAY_MS = 86_400_000;

describe('webhook deliveries stay bounded (sqlite, real HTTP)', () => {
  let s: TestServer;
  let url: string;
  let close: () => Promise<void>;
  let fixture: Awaited<ReturnType<typeof insertAdminProject>>;
  /** an integration whose matcher never matches, so deliveries start no task */
  const quietIntegration = (name: string) => insertIntegration(s, fixture.project.id, fixture.template.id, {
    name, matchers: [{ name: 'never', match_type: 'header', method: 'equals', key: 'X-Never', value: 'yes' }],
  });
  /** a delivery sent in-process, as if from `address` */
  const deliverFrom = (alias: string, address: string) =>
    s.api.request(`/api/integrations/${alias}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'x-real-ip': address } });

  beforeAll(async () => {
    ({ s, url, close } = await startHttpTestServer('sqlite'));
    fixture = await insertAdminProject(s);
  });
  afterAll(async () => { await close?.(); });

  it('answers a burst of 100 deliveries from one address with 429 once it passes the limit, recording none of those', async () => {
    const { integration, alias } = await quietIntegration('Burst');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${url}/api/integrations/${alias}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      statuses.push(res.status);
      if (res.status === 429) retryAfter ??= res.headers.get('retry-after');
      await res.body?.cancel();
    }
    const accepted = statuses.filter((st) => st === 204).length;
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(204));
    expect(statuses.filter((st) => st === 429).length).toBeGreaterThanOrEqual(30);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(await listDeliveryRows(s.deps.db, integration.id)).toHaveLength(accepted);
    // another address is not held up by the first one's burst
    expect((await deliverFrom(alias, '192.0.2.7')).status).toBe(204);
  });

  it('keeps only the newest 1,000 deliveries of an integration', async () => {
    const { integration, alias } = await quietIntegration('Chatty');
    const created = new Date().toISOString();
    const rows = Array.from({ length: 1050 }, () => ({
      project_id: fixture.project.id, integration_id: integration.id, created, matched: 0, reason: 'old', task_id: null,
    }));
    for (let i = 0; i < rows.length; i += 200) await s.deps.db.insertInto('integration_delivery').values(rows.slice(i, i + 200)).execute();
    expect((await deliverFrom(alias, '192.0.2.8')).status).toBe(204);
    const kept = await listDeliveryRows(s.deps.db, integration.id);
    expect(kept).toHaveLength(1000);
    expect(kept.at(-1)!.reason).not.toBe('old');
    expect(kept.filter((r) => r.reason === 'old')).toHaveLength(999);
  });

  it('removes deliveries older than the project task retention when retention runs', async () => {
    const { integration } = await quietIntegration('Aged');
    await s.deps.db.updateTable('project').set({ task_retention_days: 7 }).where('id', '=', fixture.project.id).execute();
    const at = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
    for (const [days, reason] of [[30, 'month old'], [8, 'week old'], [1, 'yesterday']] as const) {
      await s.deps.db.insertInto('integration_delivery').values({
        project_id: fixture.project.id, integration_id: integration.id, created: at(days), matched: 0, reason, task_id: null,
      }).execute();
    }
    const admin = await s.login(ADMIN.login, ADMIN.password);
    expect((await s.call('POST', '/api/retention/purge', undefined, admin)).status).toBe(200);
    expect((await listDeliveryRows(s.deps.db, integration.id)).map((r) => r.reason)).toEqual(['yesterday']);
  });
});
