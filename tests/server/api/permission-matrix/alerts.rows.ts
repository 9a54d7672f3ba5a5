import type { Db } from '../../../../src/server/db/database.ts';
import { now } from '../../../../src/server/lib/time.ts';
import { Permission, projectRead, projectWrite, type MatrixRow } from '../../../support/permission-matrix.ts';

const p = (w: { projectId: number }) => `/api/project/${w.projectId}`;

/** An alert channel (its URL a closed loopback port) and an event webhook with one delivery logged. */
async function setup(db: Db, w: { projectId: number }): Promise<Record<string, number>> {
  const channel = await db.insertInto('alert_channel').values({ project_id: w.projectId, kind: 'email', name: 'Ops', target: 'ops@example.test', secret: null, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  const hook = await db.insertInto('event_webhook').values({ project_id: w.projectId, name: 'CI', url: 'http://127.0.0.1:9/hook', secret: null, events: '["task_started"]', created: now() })
    .returning('id').executeTakeFirstOrThrow();
  await db.insertInto('event_webhook_delivery').values({ webhook_id: hook.id, event: 'task_started', attempt: 1, status_code: 200, duration_ms: 3, created: now() }).execute();
  return { channel: channel.id, hook: hook.id };
}
const channelBody = () => ({ kind: 'email', name: 'Oncall', emails: ['oncall@example.test'] });
const hookBody = () => ({ name: 'CI', url: 'https://ci.example.test/hook', events: ['task_finished'] });
const manage = (status: number) => projectWrite(Permission.ManageResources, status);

/**
 * Project alert channels (any member lists them, without secrets; owners and managers change and
 * test them) and outgoing event webhooks (owners and managers only: a URL may hold a token) × every caller.
 */
export const ALERTS_MATRIX: MatrixRow[] = [
  { route: 'GET /api/project/{id}/alert-channels', setup, path: (w) => `${p(w)}/alert-channels`, expect: projectRead() },
  { route: 'GET /api/project/{id}/alert-channels/{c}', setup, path: (w, _, ids) => `${p(w)}/alert-channels/${ids.channel}`, expect: projectRead() },
  { route: 'POST /api/project/{id}/alert-channels', setup, path: (w) => `${p(w)}/alert-channels`, body: channelBody, expect: manage(201) },
  { route: 'PUT /api/project/{id}/alert-channels/{c}', setup, path: (w, _, ids) => `${p(w)}/alert-channels/${ids.channel}`, body: channelBody, expect: manage(204) },
  { route: 'DELETE /api/project/{id}/alert-channels/{c}', setup, path: (w, _, ids) => `${p(w)}/alert-channels/${ids.channel}`, expect: manage(204) },
  // mail is not set up on the matrix server: the test answers {ok: false} with 200 to those allowed
  { route: 'POST /api/project/{id}/alert-channels/{c}/test', setup, path: (w, _, ids) => `${p(w)}/alert-channels/${ids.channel}/test`, expect: manage(200) },
  { route: 'GET /api/project/{id}/event-webhooks', setup, path: (w) => `${p(w)}/event-webhooks`, expect: manage(200) },
  { route: 'GET /api/project/{id}/event-webhooks/{h}', setup, path: (w, _, ids) => `${p(w)}/event-webhooks/${ids.hook}`, expect: manage(200) },
  { route: 'GET /api/project/{id}/event-webhooks/{h}/deliveries', setup, path: (w, _, ids) => `${p(w)}/event-webhooks/${ids.hook}/deliveries`, expect: manage(200) },
  { route: 'POST /api/project/{id}/event-webhooks', setup, path: (w) => `${p(w)}/event-webhooks`, body: hookBody, expect: manage(201) },
  { route: 'PUT /api/project/{id}/event-webhooks/{h}', setup, path: (w, _, ids) => `${p(w)}/event-webhooks/${ids.hook}`, body: hookBody, expect: manage(204) },
  { route: 'DELETE /api/project/{id}/event-webhooks/{h}', setup, path: (w, _, ids) => `${p(w)}/event-webhooks/${ids.hook}`, expect: manage(204) },
];
