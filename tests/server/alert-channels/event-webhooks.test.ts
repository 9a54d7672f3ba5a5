import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { startHttpReceiver, type ReceivedRequest } from '../../support/http-receiver.ts';
import { startEventWebhooks, type EventWebhooks } from '../../../src/server/event-webhooks/event-webhooks.ts';

const SECRET = 'signing-secret-9b2e41';

/** What a receiver does: recompute the signature from the timestamp header and the raw body. */
function verified(r: ReceivedRequest, secret: string): boolean {
  const timestamp = String(r.headers['x-signalbox-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.raw}`).digest('hex')}`;
  return r.headers['x-signalbox-signature'] === expected;
}

for (const dialect of DIALECTS) {
  describe(`outgoing event webhooks (${dialect})`, () => {
    let e: EngineServer;
    let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
    let hooks: EventWebhooks;
    let f: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let base = '';
    /** The backoff is over: every queued retry is due now. */
    const due = () => e.s.deps.db.updateTable('event_webhook_outbox').set({ next_at: '2000-01-01T00:00:00.000Z' }).execute();

    beforeAll(async () => {
      receiver = await startHttpReceiver();
      e = await startEngineServer(dialect);
      // a long backoff: the test stands in for the wait by making the retry due (due())
      hooks = startEventWebhooks(e.s.deps, { backoffMs: () => 3_600_000, maxAttempts: 3 });
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'ok.sh': 'echo fine\n' });
      f = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, playbook: 'ok.sh' });
      base = `/api/project/${f.project.id}`;
    });
    afterAll(async () => {
      await hooks?.stop();
      await e?.close();
      await receiver?.close();
    });

    it('signs each event with HMAC-SHA256 over the timestamp and body, and never returns the secret', async () => {
      const created = await e.s.call('POST', `${base}/event-webhooks`, {
        name: 'CI', url: `${receiver.url}/events`, secret: SECRET, events: ['task_started', 'task_finished', 'template_changed'],
      }, e.admin);
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ name: 'CI', secret_set: true, active: true, events: ['task_started', 'task_finished', 'template_changed'] });
      expect(created.text).not.toContain(SECRET);
      const stored = await e.s.deps.db.selectFrom('event_webhook').select('secret').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      expect(stored.secret).not.toContain(SECRET);

      const res = await e.s.call('POST', `${base}/tasks`, { template_id: f.template.id }, e.admin);
      const task = await waitForTask(e.s.deps.db, res.body.id);
      await e.s.call('PUT', `${base}/templates/${f.template.id}`, { description: 'changed' }, e.admin);
      // the task's end reaches the bus a moment after its row: drain until its event is out
      const got = () => receiver.received.filter((r) => r.path === '/events');
      for (const deadline = Date.now() + 10_000; got().length < 3 && Date.now() < deadline;) {
        await hooks.drain();
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(got().map((r) => r.body.event).sort()).toEqual(['task_finished', 'task_started', 'template_changed']);
      for (const r of got()) {
        expect(verified(r, SECRET), r.body.event).toBe(true);
        expect(verified(r, 'another-secret'), r.body.event).toBe(false);
        expect(r.headers['x-signalbox-event']).toBe(r.body.event);
        expect(r.headers['x-signalbox-delivery']).toBe(r.body.id);
        expect(r.body.project_id).toBe(f.project.id);
      }
      expect(got().find((r) => r.body.event === 'task_finished')!.body.data.task).toMatchObject({ id: task.id, status: 'success' });
      expect(got().find((r) => r.body.event === 'template_changed')!.body.data).toMatchObject({ action: 'updated', template: { id: f.template.id } });

      const log = await e.s.call('GET', `${base}/event-webhooks/${created.body.id}/deliveries`, undefined, e.admin);
      expect(log.body).toHaveLength(3);
      expect(log.body[0]).toMatchObject({ status_code: 200, ok: true, attempt: 1, error: '' });
      expect(log.text).not.toContain(SECRET);
      // the list never carries the secret either, and an update without one keeps it
      expect((await e.s.call('PUT', `${base}/event-webhooks/${created.body.id}`, { name: 'CI', url: `${receiver.url}/events`, events: ['task_started'] }, e.admin)).status).toBe(204);
      const listed = await e.s.call('GET', `${base}/event-webhooks`, undefined, e.admin);
      expect(listed.body[0]).toMatchObject({ secret_set: true, events: ['task_started'] });
      expect(listed.text).not.toContain(SECRET);
      await e.s.call('DELETE', `${base}/event-webhooks/${created.body.id}`, undefined, e.admin);
    });

    it('keeps an event for a receiver that is down and delivers it once the receiver is up (retry), logging each attempt', async () => {
      const down = await startHttpReceiver();
      const port = down.port;
      await down.close();
      const created = await e.s.call('POST', `${base}/event-webhooks`, { name: 'Later', url: `http://127.0.0.1:${port}/later`, secret: SECRET, events: ['template_changed'] }, e.admin);
      expect(created.status, created.text).toBe(201);
      await e.s.call('PUT', `${base}/templates/${f.template.id}`, { description: 'while down' }, e.admin);
      await hooks.drain();
      const first = await e.s.call('GET', `${base}/event-webhooks/${created.body.id}/deliveries`, undefined, e.admin);
      expect(first.body).toEqual([expect.objectContaining({ attempt: 1, status_code: null, ok: false, error: 'could not reach the service', event: 'template_changed' })]);
      expect(await e.s.deps.db.selectFrom('event_webhook_outbox').select('attempts').where('webhook_id', '=', created.body.id).execute()).toEqual([{ attempts: 1 }]);

      const up = await startHttpReceiver(() => 200, port);
      try {
        await due();
        await hooks.drain();
        expect(up.received.map((r) => [r.path, r.body.event, verified(r, SECRET)])).toEqual([['/later', 'template_changed', true]]);
        const log = await e.s.call('GET', `${base}/event-webhooks/${created.body.id}/deliveries`, undefined, e.admin);
        expect(log.body.map((d: { attempt: number; status_code: number | null }) => [d.attempt, d.status_code])).toEqual([[2, 200], [1, null]]);
        expect(await e.s.deps.db.selectFrom('event_webhook_outbox').select('id').where('webhook_id', '=', created.body.id).execute()).toEqual([]);
      } finally {
        await up.close();
      }
    });

    it('gives an event up after the last attempt; a receiver answering 500 is a failure with its status', async () => {
      const failing = await startHttpReceiver(() => 500);
      try {
        const created = await e.s.call('POST', `${base}/event-webhooks`, { name: 'Broken', url: `${failing.url}/x`, events: ['template_changed'] }, e.admin);
        await e.s.call('PUT', `${base}/templates/${f.template.id}`, { description: 'to a broken receiver' }, e.admin);
        for (let i = 0; i < 4; i++) {
          await hooks.drain();
          await due();
        }
        const log = await e.s.call('GET', `${base}/event-webhooks/${created.body.id}/deliveries`, undefined, e.admin);
        expect(log.body.map((d: { attempt: number; status_code: number; error: string }) => [d.attempt, d.status_code, d.error])).toEqual([[3, 500, 'HTTP 500'], [2, 500, 'HTTP 500'], [1, 500, 'HTTP 500']]);
        // unsigned without a secret
        expect(failing.received[0]!.headers['x-signalbox-signature']).toBeUndefined();
        expect(await e.s.deps.db.selectFrom('event_webhook_outbox').select('id').where('webhook_id', '=', created.body.id).execute()).toEqual([]);
      } finally {
        await failing.close();
      }
    });

    it('refuses bad bodies naming the field, and stores nothing', async () => {
      const before = await e.s.deps.db.selectFrom('event_webhook').select('id').execute();
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 'x', url: 'file:///etc/passwd', events: ['task_started'] }, 'url: must be an http:// or https:// URL'],
        [{ name: 'x', url: 'https://example.test', events: [] }, 'events: choose at least one event'],
        [{ name: 'x', url: 'https://example.test', events: ['task_exploded'] }, 'must be one of'],
        [{ name: 'x', events: ['task_started'] }, 'url:'],
      ];
      for (const [body, error] of cases) {
        const res = await e.s.call('POST', `${base}/event-webhooks`, body, e.admin);
        expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, expect.stringContaining(error)]);
      }
      expect(await e.s.deps.db.selectFrom('event_webhook').select('id').execute()).toEqual(before);
    });
  });
}
