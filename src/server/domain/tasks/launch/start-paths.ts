/**
 * Every way a task starts, each with where a refused start is recorded for people to see. Each
 * start path names itself when it calls `launchTask`; the launch matrix test
 * (tests/server/domain/tasks/launch-matrix.test.ts) holds a row for every entry and fails
 * when a module calls the launch function without being one of them.
 */
export const START_PATHS = {
  /** POST /api/project/{id}/tasks: API clients, the launch dialog and re-run in the console */
  api: 'the HTTP answer: 400 {"error": …} (403 without a body for a role that may not run tasks)',
  /** POST /api/project/{id}/templates/bulk with action "run" */
  bulk: "the bulk action's result for that template",
  /** a cron, one-shot (run_at) or commit-check schedule firing */
  schedule: "the schedule's last_error and the project's activity",
  /** an incoming webhook delivery matched by an integration */
  webhook: "the integration's delivery log",
  /** a deploy template with autorun, after a successful build */
  autorun: "the build task's log",
  /** a task node of a workflow run */
  workflow: "the workflow run's history (the node fails and the run follows its failure edges)",
} as const;

export type StartPath = keyof typeof START_PATHS;
