import type { TaskInput } from '../task.ts';

/** App params a stored configuration may carry at its top level (2.10's flat shape) beside `params`. */
const FLAT_PARAMS = ['debug', 'debug_level', 'dry_run', 'diff', 'skip_galaxy_install', 'limit', 'tags', 'skip_tags', 'plan', 'destroy', 'auto_approve', 'upgrade', 'reconfigure'];

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const id = (value: unknown) => (Number.isInteger(value) && (value as number) > 0 ? value as number : undefined);

/**
 * What a schedule's or integration's stored `task_params` asks of a start, as a task request:
 * Semaphore's TaskParams (`environment`, `git_branch`, `message`, `arguments`, app `params`),
 * 2.10's flat flags (`debug`, `limit` …) and Signalbox's `inventory_id` / `environment_ids`.
 * Values of the wrong kind are left out; the launch rules judge the rest.
 * @example taskInputOfStoredParams(3, { params: { limit: ['web'] }, environment: '{"replicas":"2"}' })
 */
export function taskInputOfStoredParams(templateId: number, stored: Record<string, unknown>): TaskInput {
  const params: Record<string, unknown> = {};
  for (const key of FLAT_PARAMS) if (Object.hasOwn(stored, key)) params[key] = stored[key];
  const nested = stored.params;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) Object.assign(params, nested);
  const environment = stored.environment;
  const args = stored.arguments;
  const groups = stored.environment_ids;
  return {
    template_id: templateId,
    params,
    message: text(stored.message),
    git_branch: text(stored.git_branch),
    environment: typeof environment === 'string' || (environment && typeof environment === 'object' && !Array.isArray(environment))
      ? environment as TaskInput['environment'] : undefined,
    arguments: Array.isArray(args) ? JSON.stringify(args) : text(args),
    inventory_id: id(stored.inventory_id),
    environment_ids: Array.isArray(groups) && groups.every((g) => id(g) !== undefined) ? groups as number[] : undefined,
  };
}
