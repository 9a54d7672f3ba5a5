import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config/config.ts';

const tmp = mkdtempSync(join(tmpdir(), 'signalbox-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('alert, metrics and retention settings', () => {
  it('are off by default', () => {
    const config = loadConfig({});
    expect(config.metrics).toEqual({ enabled: false, username: '', password: '' });
    expect(Object.values(config.alerts).map((c) => c.enabled)).toEqual(Array(8).fill(false));
    expect(config.alerts.email.port).toBe(25);
    expect(config.alerts.telegram.api_url).toBe('https://api.telegram.org');
    expect([config.task_retention_days, config.output_retention_days]).toEqual([0, 0]);
  });

  it('reads Semaphore\'s config.json keys (metrics nested) and lets SEMAPHORE_* win', () => {
    const file = join(tmp, 'config.json');
    writeFileSync(file, JSON.stringify({
      email_alert: true, email_host: 'smtp.example.org', email_port: '587', email_sender: 'ci@example.org', email_secure: true,
      slack_alert: true, slack_url: 'https://hooks.slack.com/services/x', gotify_alert: true, gotify_url: 'https://gotify.example.org', gotify_token: 't',
      metrics: { enabled: true, username: 'prom' }, task_retention_days: 30,
    }));
    const config = loadConfig({ SEMAPHORE_EMAIL_PORT: '2525', SEMAPHORE_METRICS_PASSWORD: 'p', SEMAPHORE_OUTPUT_RETENTION_DAYS: '7' }, { configPath: file });
    expect(config.alerts.email).toMatchObject({ enabled: true, host: 'smtp.example.org', port: 2525, sender: 'ci@example.org', secure: true, tls: false });
    expect(config.alerts.slack).toEqual({ enabled: true, url: 'https://hooks.slack.com/services/x' });
    expect(config.alerts.gotify).toEqual({ enabled: true, url: 'https://gotify.example.org', token: 't' });
    expect(config.metrics).toEqual({ enabled: true, username: 'prom', password: 'p' });
    expect([config.task_retention_days, config.output_retention_days]).toEqual([30, 7]);
  });

  it('stops start-up on values that cannot work, naming the setting', () => {
    expect(() => loadConfig({ SEMAPHORE_EMAIL_PORT: 'smtp' })).toThrow(new ConfigError('SEMAPHORE_EMAIL_PORT: "smtp" is not a port; use 1-65535, optionally with a leading ":"'));
    expect(() => loadConfig({ SEMAPHORE_SLACK_URL: 'hooks.slack.com' })).toThrow(/^SEMAPHORE_SLACK_URL: /);
    expect(() => loadConfig({ SEMAPHORE_METRICS_ENABLED: 'sometimes' })).toThrow(/^SEMAPHORE_METRICS_ENABLED: /);
    expect(() => loadConfig({ SEMAPHORE_TASK_RETENTION_DAYS: '-1' })).toThrow(/^SEMAPHORE_TASK_RETENTION_DAYS: /);
  });
});
