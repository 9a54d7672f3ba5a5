import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer } from '../../support/harness.ts';
import { startEngineServer, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { insertUserWithToken } from '../../support/project-rows.ts';
import { now } from '../../../src/server/lib/time.ts';

interface Sample { name: string; labels: Record<string, string>; value: number }

/** Parses the Prometheus text exposition format into samples (comments and HELP/TYPE skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

for (const dialect of DIALECTS) {
  describe(`GET /api/metrics (${dialect})`, () => {
    let e: EngineServer;
    let f: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

    beforeAll(async () => {
      e = await startEngineServer(dialect, { SEMAPHORE_METRICS_ENABLED: 'true', SEMAPHORE_METRICS_USERNAME: 'prometheus', SEMAPHORE_METRICS_PASSWORD: 'scrape-pass-1' });
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'ok.sh': 'echo one\necho two\n', 'fail.sh': 'exit 2\n' });
      f = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, playbook: 'ok.sh' });
    });
    afterAll(async () => { await e.close(); });

    it('is off by default', async () => {
      const plain = await startTestServer(dialect);
      try {
        expect((await plain.call('GET', '/api/metrics', undefined, await plain.login('admin', 'admin-password-1'))).status).toBe(404);
      } finally {
        await plain.close();
      }
    });

    it('answers the configured basic auth and admins only', async () => {
      expect((await e.s.call('GET', '/api/metrics')).status).toBe(401);
      expect((await e.s.call('GET', '/api/metrics', undefined, basic('prometheus', 'wrong'))).status).toBe(403);
      expect((await e.s.call('GET', '/api/metrics', undefined, (await insertUserWithToken(e.s.deps.db)).auth)).status).toBe(403);
      expect((await e.s.call('GET', '/api/metrics', undefined, (await insertUserWithToken(e.s.deps.db, { admin: true })).auth)).status).toBe(200);
      const scraped = await e.s.call('GET', '/api/metrics', undefined, basic('prometheus', 'scrape-pass-1'));
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    });

    it('counts tasks by status and app, their durations, queue waits, log lines, requests, queue, runners and deliveries', async () => {
      const failing = await insertTemplate(e.s.deps.db, f.project.id, { name: 'Failing', playbook: 'fail.sh', repository_id: f.repository.id, inventory_id: f.inventory.id });
      for (const templateId of [f.template.id, failing.id]) {
        const res = await e.s.call('POST', `/api/project/${f.project.id}/tasks`, { template_id: templateId }, e.admin);
        await waitForTask(e.s.deps.db, res.body.id);
      }
      await e.engine.stop();
      const db = e.s.deps.db;
      await db.insertInto('task').values({ project_id: f.project.id, template_id: f.template.id, status: 'waiting', playbook: '', environment: '{}', message: '', commit_message: '', params: '{}', created: now(), user_id: null, integration_id: null, schedule_id: null, build_task_id: null, inventory_id: null, arguments: null, git_branch: null, commit_hash: null, version: null, start: null, end: null, locked_by: null }).execute();
      await db.insertInto('engine_worker').values([
        { id: 'fresh', host: 'h', pid: 1, started: now(), heartbeat_at: now() },
        { id: 'silent', host: 'h', pid: 2, started: '2020-01-01T00:00:00.000Z', heartbeat_at: '2020-01-01T00:00:00.000Z' },
      ]).execute();
      const integration = await db.insertInto('integration').values({ project_id: f.project.id, name: 'hook', template_id: f.template.id, auth_method: 'none', auth_secret_id: null, auth_header: null, searchable: 0, task_params: '{}' }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('integration_delivery').values([
        { project_id: f.project.id, integration_id: integration.id, created: now(), matched: 0, reason: 'no match', task_id: null },
        { project_id: f.project.id, integration_id: integration.id, created: now(), matched: 0, reason: 'no match', task_id: null },
        { project_id: f.project.id, integration_id: integration.id, created: now(), matched: 1, reason: 'failed to start task', task_id: null },
      ]).execute();
      await e.s.call('GET', `/api/project/${f.project.id}/templates`, undefined, e.admin);
      await e.s.call('GET', `/api/project/${f.project.id}/templates/999999`, undefined, e.admin);

      const scraped = await e.s.call('GET', '/api/metrics', undefined, basic('prometheus', 'scrape-pass-1'));
      const samples = parseExposition(scraped.text);
      expect(value(samples, 'signalbox_tasks_total', { status: 'success', app: 'bash' })).toBe(1);
      expect(value(samples, 'signalbox_tasks_total', { status: 'error', app: 'bash' })).toBe(1);
      expect(value(samples, 'signalbox_task_duration_seconds_count', { app: 'bash' })).toBe(2);
      expect(value(samples, 'signalbox_task_duration_seconds_bucket', { app: 'bash', le: '+Inf' })).toBe(2);
      expect(value(samples, 'signalbox_task_queue_wait_seconds_count', { app: 'bash' })).toBe(2);
      expect(value(samples, 'signalbox_task_log_lines_total')).toBeGreaterThanOrEqual(4);
      expect(value(samples, 'signalbox_task_queue_length')).toBe(1);
      expect(value(samples, 'signalbox_tasks_running')).toBe(0);
      expect(value(samples, 'signalbox_runners', { state: 'active' })).toBe(1);
      expect(value(samples, 'signalbox_runners', { state: 'stale' })).toBe(1);
      expect(value(samples, 'signalbox_webhook_deliveries_total', { outcome: 'not_matched' })).toBe(2);
      expect(value(samples, 'signalbox_webhook_deliveries_total', { outcome: 'failed' })).toBe(1);
      expect(value(samples, 'signalbox_webhook_deliveries_total', { outcome: 'task_started' })).toBe(0);
      expect(value(samples, 'signalbox_http_requests_total', { method: 'GET', route: '/api/project/:project_id/templates', status: '200' })).toBe(1);
      expect(value(samples, 'signalbox_http_requests_total', { method: 'GET', route: '/api/project/:project_id/templates/:template_id', status: '404' })).toBe(1);
      expect(samples.some((s) => s.name === 'signalbox_http_requests_total' && /\d/.test(s.labels.route!))).toBe(false);
      expect(value(samples, 'signalbox_process_resident_memory_bytes')).toBeGreaterThan(1_000_000);
    });
  });
}
