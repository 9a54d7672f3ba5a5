import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/server/config/config.ts';

describe('audit settings', () => {
  it('defaults: audit on, a year of retention, no export', () => {
    const { audit } = loadConfig({});
    expect(audit).toMatchObject({ enabled: true, retention_days: 365, file: { enabled: false }, syslog: { enabled: false }, webhook: { enabled: false } });
  });

  it("reads Semaphore's config.json names: log.events.logger, syslog, log.audit_webhook", () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-audit-config-'));
    try {
      writeFileSync(join(dir, 'config.json'), JSON.stringify({
        log: {
          events: { enabled: true, format: 'raw', logger: { filename: '/var/log/sb/events.log', maxsize: 10, maxbackups: 3, compress: true } },
          audit_webhook: { enabled: true, url: 'https://splunk.example.com:8088/services/collector/event', format: 'splunk_hec', headers: { Authorization: 'Splunk t' } },
        },
        syslog: { enabled: true, network: 'tcp', address: 'logs.example.com:514', tag: 'sb' },
        audit: { retention_days: 90 },
      }));
      const { audit } = loadConfig({}, { configPath: join(dir, 'config.json') });
      expect(audit.file).toEqual({ enabled: true, format: 'raw', filename: '/var/log/sb/events.log', maxsize: 10, maxbackups: 3, compress: true });
      expect(audit.webhook).toEqual({ enabled: true, url: 'https://splunk.example.com:8088/services/collector/event', format: 'splunk_hec', headers: { Authorization: 'Splunk t' } });
      expect(audit.syslog).toMatchObject({ enabled: true, network: 'tcp', address: 'logs.example.com:514', tag: 'sb' });
      expect(audit.retention_days).toBe(90);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads SEMAPHORE_SYSLOG_*, SEMAPHORE_AUDIT_WEBHOOK_* and SEMAPHORE_EVENT_LOG_* from the environment', () => {
    const { audit } = loadConfig({
      SEMAPHORE_SYSLOG_ENABLED: 'true', SEMAPHORE_SYSLOG_NETWORK: 'tls', SEMAPHORE_SYSLOG_ADDRESS: '10.0.0.5:6514', SEMAPHORE_SYSLOG_TLS_SKIP_VERIFY: 'yes',
      SEMAPHORE_AUDIT_WEBHOOK_ENABLED: 'true', SEMAPHORE_AUDIT_WEBHOOK_URL: 'http://127.0.0.1:9000/hook', SEMAPHORE_AUDIT_WEBHOOK_HEADERS: '{"X-Key":"k"}',
      SEMAPHORE_EVENT_LOG_ENABLED: 'true', SEMAPHORE_EVENT_LOG_LOGGER: '{"filename":"./audit.log"}', SIGNALBOX_AUDIT_ENABLED: 'false',
    });
    expect(audit.syslog).toMatchObject({ network: 'tls', address: '10.0.0.5:6514', tls_skip_verify: true });
    expect(audit.webhook).toMatchObject({ format: '', headers: { 'X-Key': 'k' } });
    expect(audit.file).toMatchObject({ enabled: true, filename: './audit.log', maxsize: 100, maxbackups: 0, compress: false });
    expect(audit.enabled).toBe(false);
  });

  it('refuses a bad setting with one line naming it', () => {
    expect(() => loadConfig({ SEMAPHORE_SYSLOG_ENABLED: 'true', SEMAPHORE_SYSLOG_ADDRESS: 'nowhere' })).toThrow(new ConfigError('SEMAPHORE_SYSLOG_ADDRESS (syslog.address): required when syslog is enabled; use host:port'));
    expect(() => loadConfig({ SEMAPHORE_SYSLOG_NETWORK: 'carrier-pigeon' })).toThrow(/SEMAPHORE_SYSLOG_NETWORK: "carrier-pigeon" is not allowed/);
    expect(() => loadConfig({ SEMAPHORE_AUDIT_WEBHOOK_ENABLED: 'true' })).toThrow(/SEMAPHORE_AUDIT_WEBHOOK_URL \(log.audit_webhook.url\): required/);
    expect(() => loadConfig({ SEMAPHORE_AUDIT_WEBHOOK_HEADERS: '{"a":1}' })).toThrow(/SEMAPHORE_AUDIT_WEBHOOK_HEADERS: use a JSON object of strings/);
  });
});
