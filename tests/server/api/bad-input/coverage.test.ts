import { describe, expect, it } from 'vitest';
import { mountedRoutes, routesWithoutLabel } from '../../../support/route-table.ts';
import { FOUNDATION_WRITES } from './foundation.writes.ts';
import { RESOURCE_WRITES } from './resources.writes.ts';
import { TEMPLATE_WRITES } from './templates.writes.ts';
import { INTEGRATION_WRITES } from './integrations.writes.ts';
import { SYSTEM_WRITES } from './system.writes.ts';
import { TASK_WRITES } from './tasks.writes.ts';
import { AUTH_WRITES } from './auth.writes.ts';
import { RUNNER_WRITES } from './runners.writes.ts';
import { HOST_CONFIG_WRITES } from './host-configs.writes.ts';
import { INVITE_WRITES } from './invites.writes.ts';
import { WORKFLOW_WRITES } from './workflows.writes.ts';
import { SECRET_STORAGE_WRITES } from './secret-storages.writes.ts';
import { ALERT_WRITES } from './alerts.writes.ts';
import { LOCK_WRITES } from './locks.writes.ts';
import { ROLE_WRITES, SERVER_ROLE_WRITES } from './roles.writes.ts';

/** POST/PUT routes that read no body, with the reason they are not sent bad bodies. */
const NO_BODY: Record<string, string> = {
  'POST /api/auth/logout': 'reads no body: it ends the session of the request',
  'POST /api/debug/gc': 'reads no body: it runs a garbage collection',
  'POST /api/integrations/{alias}': 'a webhook takes any body by design; its checks are in tests/server/integrations',
  'POST /api/project/{id}/integrations/aliases': 'reads no body: it creates a random alias',
  'POST /api/project/{id}/integrations/{i}/aliases': 'reads no body: it creates a random alias',
  'POST /api/project/{id}/templates/{t}/inventory/{ws}/attach': 'reads no body: the ids are in the path (checked in path-ids.test.ts)',
  'POST /api/project/{id}/templates/{t}/inventory/{ws}/set_default': 'reads no body: the ids are in the path (checked in path-ids.test.ts)',
  'POST /api/terraform/{alias}': 'the state backend stores terraform\'s state body; its checks are in tests/server/terraform',
  'POST /api/retention/purge': 'reads no body: it applies the stored retention settings',
  'POST /api/project/{id}/workflows/{w}/runs/{r}/stop': 'reads no body: it stops the run in the path',
  'POST /api/project/{id}/tasks/{task}/confirm': 'reads no body: the task is in the path',
  'POST /api/project/{id}/tasks/{task}/reject': 'reads no body: the task is in the path',
  'POST /api/project/{id}/inventory/{inv}/sync': 'reads no body: it reads the source of the inventory in the path (tests/server/engine/inventory-sources.test.ts)',
  'POST /api/project/{id}/tasks/{task}/relaunch_failed': 'reads no body: the task is in the path, the hosts come from its recorded PLAY RECAP',
  'POST /api/project/{id}/templates/{t}/inventory/{ws}/detach': 'reads no body: the ids are in the path (checked in path-ids.test.ts)',
  'POST /api/users/{id}/2fas/totp/{t}/confirm': 'its valid body is the code of the moment of a pending enrolment: its bad bodies are in tests/security/totp-enrolment.test.ts',
  'POST /api/user/identities/ldap': 'its valid body needs a directory: its bad bodies are in tests/server/api/identity-links.test.ts (against slapd)',
  'POST /api/runners/{runner}/registration-token': 'reads no body: it creates a random one-time token',
  'POST /api/project/{id}/runners/{runner}/registration-token': 'reads no body: it creates a random one-time token',
  'POST /api/project/{id}/notifications/test': 'reads no body: it sends a test alert (tests/server/api/notifications-test.test.ts)',
  'POST /api/project/{id}/secret_storages/{s}/test': 'reads no body: it signs in to the storage in the path',
  'POST /api/project/{id}/alert-channels/{c}/test': 'reads no body: it sends a test alert through the channel in the path (tests/server/alert-channels)',
  'PUT /api/internal/runners': 'needs a registered runner\'s X-Runner-Token first; its bad bodies are in tests/server/runners/runners-api.test.ts',
};

describe('bad-input coverage', () => {
  it('sends bad bodies to every POST and PUT the API mounts, or says why the route reads no body', () => {
    const writes = mountedRoutes().filter((route) => /^(POST|PUT|PATCH) /.test(route));
    expect(writes.length).toBeGreaterThan(40);
    const labels = [...FOUNDATION_WRITES, ...RESOURCE_WRITES, ...TEMPLATE_WRITES, ...INTEGRATION_WRITES, ...SYSTEM_WRITES, ...TASK_WRITES, ...AUTH_WRITES, ...RUNNER_WRITES, ...HOST_CONFIG_WRITES, ...INVITE_WRITES, ...SECRET_STORAGE_WRITES, ...WORKFLOW_WRITES, ...ALERT_WRITES, ...LOCK_WRITES, ...ROLE_WRITES, ...SERVER_ROLE_WRITES].map((r) => r.route);
    expect(routesWithoutLabel(writes, [...labels, ...Object.keys(NO_BODY)])).toEqual([]);
  });
});
