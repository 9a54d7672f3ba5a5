import { hostname } from 'node:os';
import type { AuditSettings } from '../config/config.ts';
import type { AuditSink, ExportedAuditEvent } from './audit-record.ts';
import { postOutgoing } from '../lib/outgoing-http.ts';

const TIMEOUT_MS = 10_000;

/**
 * Semaphore's audit webhook: plain JSON (one event per POST) or Splunk HEC (a batch of
 * `{"time", "host", "source", "sourcetype", "event"}` envelopes in one POST), with the extra
 * headers configured (e.g. `Authorization: Splunk <token>`). Anything but a 2xx is a failure
 * and the batch is sent again later.
 */
export function webhookSink(settings: AuditSettings['webhook']): AuditSink {
  const post = async (body: string) => {
    const headers = { 'content-type': 'application/json', 'user-agent': 'signalbox-audit', ...settings.headers };
    const { status } = await postOutgoing(settings.url, headers, body, TIMEOUT_MS);
    if (status < 200 || status >= 300) throw new Error(`audit webhook answered ${status}`);
  };
  return {
    name: 'webhook',
    batch: settings.format === 'splunk_hec' ? 100 : 1,
    async deliver(events) {
      if (settings.format === 'splunk_hec') return post(events.map(hecEnvelope).join('\n'));
      for (const event of events) await post(JSON.stringify(event));
    },
    async close() {},
  };
}

/** A Splunk HTTP Event Collector envelope. */
export function hecEnvelope(event: ExportedAuditEvent): string {
  return JSON.stringify({ time: Date.parse(event.time) / 1000, host: hostname(), source: 'signalbox', sourcetype: 'signalbox:audit', event });
}
