import type { Db } from '../../../../src/server/db/database.ts';
import { now } from '../../../../src/server/lib/time.ts';
import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';

const p = ({ w }: BadInputContext) => `/api/project/${w.projectId}`;
const channel = () => ({ kind: 'webhook', name: 'Ops', url: 'https://hooks.example.test/T1' });
const channelFields = { kind: 'string', name: 'string', active: 'boolean', url: 'string', token: 'string', chat_id: 'string', server_url: 'string', emails: 'array' } as const;
const hook = () => ({ name: 'CI', url: 'https://ci.example.test/hook', secret: 's', events: ['task_started'] });
const hookFields = { name: 'string', url: 'string', secret: 'string', events: 'array', active: 'boolean' } as const;

/** An alert channel and an event webhook to update. */
export async function prepareAlerts(db: Db, { w }: BadInputContext): Promise<Record<string, number>> {
  const c = await db.insertInto('alert_channel').values({ project_id: w.projectId, kind: 'email', name: 'Mail', target: 'a@example.test', secret: null, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  const h = await db.insertInto('event_webhook').values({ project_id: w.projectId, name: 'Hook', url: 'https://x.example.test', secret: null, events: '["task_started"]', created: now() })
    .returning('id').executeTakeFirstOrThrow();
  return { channel: c.id, hook: h.id };
}

/** POST/PUT of alert channels and event webhooks. */
export const ALERT_WRITES: WriteRoute[] = [
  {
    route: 'POST /api/project/{id}/alert-channels', path: (x) => `${p(x)}/alert-channels`, valid: channel, fields: channelFields,
    maxLength: { url: 2048, token: 1024, server_url: 2048 },
    extra: () => [
      ['a slack channel without its URL', { kind: 'slack', name: 'x' }], ['a javascript: URL', { ...channel(), url: 'javascript:alert(1)' }],
      ['an email channel with a word for an address', { kind: 'email', name: 'x', emails: ['not-an-address'] }],
      ['a kind no alert knows', { ...channel(), kind: 'pager' }],
    ],
  },
  {
    route: 'PUT /api/project/{id}/alert-channels/{c}', path: (x) => `${p(x)}/alert-channels/${x.more.channel}`, valid: channel, fields: channelFields,
    maxLength: { url: 2048, token: 1024, server_url: 2048 },
    extra: () => [['another kind without its secret', { kind: 'telegram', name: 'x', chat_id: '1' }]],
  },
  {
    route: 'POST /api/project/{id}/event-webhooks', path: (x) => `${p(x)}/event-webhooks`, valid: hook, fields: hookFields, maxLength: { url: 2048, secret: 1024 },
    extra: () => [['a file: URL', { ...hook(), url: 'file:///etc/passwd' }], ['no events', { ...hook(), events: [] }], ['an unknown event', { ...hook(), events: ['boom'] }]],
  },
  { route: 'PUT /api/project/{id}/event-webhooks/{h}', path: (x) => `${p(x)}/event-webhooks/${x.more.hook}`, valid: hook, fields: hookFields, maxLength: { url: 2048, secret: 1024 } },
];
