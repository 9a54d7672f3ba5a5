import type { SemaphoreDocument } from '../../contract/openapi-spec.ts';
import type { Exception } from './run-dredd.ts';

const UPDATES_TEMPLATE: Exception = {
  name: 'template > /api/project/{project_id}/templates/{template_id} > Updates template > 204 > application/json',
  why: 'the document renames a second template to "Test", the name "create template" already gave one; Signalbox keeps '
    + "template names unique per project, as Semaphore does since tasks can start by template_name: Semaphore's later "
    + 'hooks (.dredd/hooks/capabilities.go, alterRequestBody: `if t.Request.Method == "PUT" && strings.Contains(t.Request.URI, "/templates/")` '
    + '→ `name = "Test-" + getUUID()`) give this PUT a fresh name for that reason. Listed in the README.',
};

/**
 * The restored project of "Restore Project" carries a schedule `* * * * *`; once it fires, the
 * events of its task have no user, which Semaphore writes as `"user_id": null` too.
 */
const eventsWithScheduledTasks = (summary: string): Exception => ({
  name: `${summary} > 200 > application/json`,
  either: true,
  why: 'the document types Event.user_id as an integer, but Semaphore\'s own server answers null for events of a task no user '
    + 'started (db/Event.go: `UserID *int db:"user_id" json:"user_id"`, no omitempty); the suite\'s restored project holds a '
    + 'schedule `* * * * *`, so whether such an event exists depends on the minute the suite runs at',
});

const RELEASE: Exception[] = [
  UPDATES_TEMPLATE,
  eventsWithScheduledTasks('/api/events > Get Events related to Semaphore and projects you are part of'),
  eventsWithScheduledTasks('/api/events/last > Get last 200 Events related to Semaphore and projects you are part of'),
];

const HOST_CONFIG_ID = 'the document gives host_config_id the path example 1, which the hooks\' pathSubPatterns (capabilities.go) '
  + 'map to the project: the path names host config 1 in the project BeforeEach (main.go) made for this transaction, which '
  + 'has none; Semaphore\'s server, which reads a host config within its project, cannot answer it either';

const DEVELOP: Exception[] = [
  UPDATES_TEMPLATE,
  eventsWithScheduledTasks('/api/events > Get Events related to Semaphore and projects you are part of'),
  eventsWithScheduledTasks('/api/events/last > Get last 200 Events related to Semaphore and projects you are part of'),
  { name: 'project > /api/project/{project_id}/host_configs/{host_config_id} > Get a credential mapping > 200 > application/json', why: HOST_CONFIG_ID },
  { name: 'project > /api/project/{project_id}/host_configs/{host_config_id} > Update a credential mapping > 204 > application/json', why: HOST_CONFIG_ID },
  { name: 'project > /api/project/{project_id}/host_configs/{host_config_id} > Delete a credential mapping > 204 > application/json', why: HOST_CONFIG_ID },
  {
    name: 'workflow > /api/project/{project_id}/workflows/{workflow_id}/run > Run workflow > 201 > application/json',
    why: 'a PRO transaction the hooks mean to skip without the PRO module, but their skip list (main.go, proOnlyTests) names '
      + '".../workflows/{workflow_id}/runs > Run workflow" while the document names ".../run"; without a workflow fixture '
      + 'pathSubPatterns puts workflow 0 in the path, which no server has',
  },
  {
    name: 'runner > /api/runners/{runner_id}/registration-token > Regenerate the one-time registration token of an unregistered global runner > 200 > application/json',
    why: 'the document offers a new registration token for an unregistered runner only, and the hooks\' runner '
      + '(helpers.go, addGlobalRunner: `Token: db.GenerateRunnerToken()`) is registered; Signalbox refuses it as the '
      + 'summary says (400 "Runner is already registered")',
  },
];

/** Per document, the transactions that may fail, each with its reason. */
export const DREDD_EXCEPTIONS: Record<SemaphoreDocument, Exception[]> = { release: RELEASE, develop: DEVELOP };
