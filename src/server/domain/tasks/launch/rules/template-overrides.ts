import { badRequest } from '../../../../http/errors.ts';
import { checkEnvironmentIds, templateEnvironmentIds } from '../../../environments/environment-list.ts';
import { checkCommitHash, checkGitBranch } from '../../git-refs.ts';
import { refuseLimitReadingFiles } from '../../limit-file-check.ts';
import type { Launch, LaunchRule } from '../launch.ts';
import { assertInventoryAllowed } from '../../../templates/allowed-inventories.ts';

const TERRAFORM_APPS = ['terraform', 'tofu'];

/**
 * What a run may choose beyond survey answers, each only where the template allows it:
 * branch, inventory, variable groups, arguments, limit, tags, skip-tags, debug, auto-approve
 * (commit: always, for now). A value the template does not let a run choose is not applied
 * — Semaphore ignores it too — and the start says so (`notes`: the task's log, a webhook's
 * delivery record); other variable groups are refused instead, as they would hand the task
 * other secrets than asked for, and so is an inventory the template's `allowed_inventories`
 * leave out (the list is a limit, whether or not a run may choose). A value equal to the template's own (Semaphore's UI sends them
 * back on a re-run) and an empty branch are no override at all, and are kept as sent. A value
 * that is allowed but malformed is refused, and so is one that would let a caller who may not
 * edit the template run code (arguments, a limit that reads a file).
 */
export const templateOverrides: LaunchRule = {
  name: 'template overrides',
  async check(launch) {
    const allowed = allowedOverrides(launch);
    const { input, template } = launch;
    const branch = input.git_branch?.trim();
    if (input.git_branch === '') launch.task.gitBranch = '';
    else if (branch) {
      if (allowed.branch) launch.task.gitBranch = checkGitBranch(branch);
      else if (branch !== template.git_branch) notApplied(launch, 'git_branch', branch, 'branch');
    }
    if (input.commit_hash?.trim()) launch.task.commitHash = checkCommitHash(input.commit_hash);
    await chooseInventory(launch, allowed.inventory);
    await chooseEnvironmentIds(launch, allowed.environments);
    chooseArguments(launch, allowed.args);
    launch.task.params = chooseParams(launch);
  },
};

/** The template's allow flags, read once. */
function allowedOverrides({ template, templateParams }: Launch) {
  return overridesAllowed(template, templateParams);
}

/**
 * What a start of this template may choose besides survey answers, from its allow flags (the
 * launch dialog's and the MCP server's description of a template).
 * @example overridesAllowed(template, template.task_params).branch
 */
export function overridesAllowed(
  template: { allow_override_branch_in_task: unknown; allow_override_args_in_task: unknown; app?: string },
  p: Record<string, unknown>,
) {
  const terraform = TERRAFORM_APPS.includes(template.app ?? '');
  return {
    branch: Boolean(template.allow_override_branch_in_task),
    args: Boolean(template.allow_override_args_in_task),
    inventory: Boolean(p.allow_override_inventory),
    environments: Boolean(p.allow_override_environment),
    limit: !terraform && Boolean(p.allow_override_limit),
    tags: !terraform && Boolean(p.allow_override_tags),
    skip_tags: !terraform && Boolean(p.allow_override_skip_tags),
    debug: !terraform && p.allow_debug !== false,
    auto_approve: terraform && Boolean(p.allow_auto_approve),
  };
}

/** Records a value that was asked for and not applied. */
function notApplied(launch: Launch, field: string, value: unknown, what: string): void {
  const shown = JSON.stringify(value);
  launch.notes.push(`${field} ${shown.length > 120 ? `${shown.slice(0, 117)}...` : shown} not applied: the template does not let a task choose its ${what}`);
}

async function chooseInventory(launch: Launch, allowed: boolean): Promise<void> {
  const id = launch.input.inventory_id;
  if (!id) return;
  if (id === launch.template.inventory_id) {
    launch.task.inventoryId = id;
    return;
  }
  await assertInventoryAllowed(launch.deps.db, launch.template, id);
  if (!allowed) return notApplied(launch, 'inventory_id', id, 'inventory');
  const inventory = await launch.deps.db.selectFrom('inventory').select('id').where('id', '=', id).where('project_id', '=', launch.template.project_id).executeTakeFirst();
  if (!inventory) throw badRequest('inventory_id: no such inventory in this project');
  launch.task.inventoryId = inventory.id;
}

/** The variable groups chosen at launch (Semaphore 2.20's `environment_ids`); left out: the template's own. */
async function chooseEnvironmentIds(launch: Launch, allowed: boolean): Promise<void> {
  const ids = launch.input.environment_ids;
  if (ids === undefined || ids === null) return;
  const { db } = launch.deps;
  if (allowed) {
    launch.task.environmentIds = await checkEnvironmentIds(db, launch.template.project_id, ids, 'environment_ids');
    return;
  }
  const own = await templateEnvironmentIds(db, launch.template);
  if (ids.join(',') !== own.join(',')) throw badRequest('environment_ids: this template does not let a task choose its variable groups');
}

/** Task arguments (a JSON array of strings); only someone who may edit the template may pass any. */
function chooseArguments(launch: Launch, allowed: boolean): void {
  const text = launch.input.arguments?.trim();
  if (!text || text === '[]') return;
  if (!allowed) {
    if (text !== launch.template.arguments) notApplied(launch, 'arguments', text, 'arguments');
    return;
  }
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch { /* reported below */ }
  if (!Array.isArray(list)) throw badRequest('arguments: must be a JSON array of strings');
  if (!list.length) return;
  if (!launch.editor) throw badRequest('arguments: only someone who may manage the project\'s resources may pass arguments');
  launch.task.arguments = text;
}

/**
 * The app params this run chooses; 2.10's flat flags fold into them. Ansible reads a `--limit`
 * pattern starting with `@` as a file of host names and prints the ones it cannot match: only
 * those who may edit the template may point it at a file.
 */
function chooseParams(launch: Launch): Record<string, unknown> {
  const { input, template, templateParams: p } = launch;
  const given: Record<string, unknown> = { ...(input.params ?? {}) };
  for (const flag of ['debug', 'dry_run', 'diff', 'debug_level'] as const) if (input[flag] !== undefined) given[flag] = input[flag];
  if (input.limit) given.limit = input.limit;
  const params: Record<string, unknown> = {};
  if (TERRAFORM_APPS.includes(template.app)) {
    for (const key of ['plan', 'destroy', 'upgrade', 'reconfigure']) if (given[key] !== undefined) params[key] = Boolean(given[key]);
    if (given.auto_approve) {
      if (p.allow_auto_approve) params.auto_approve = true;
      else if (!p.auto_approve) notApplied(launch, 'auto_approve', true, 'auto-approve');
    }
    return params;
  }
  for (const key of ['dry_run', 'diff', 'skip_galaxy_install']) if (given[key] !== undefined) params[key] = Boolean(given[key]);
  if (given.debug !== undefined) {
    if (p.allow_debug !== false) {
      params.debug = Boolean(given.debug);
      if (given.debug_level !== undefined) params.debug_level = Math.min(6, Math.max(1, Number(given.debug_level) || 4));
    } else if (given.debug) notApplied(launch, 'debug', true, 'debug output');
  }
  const lists = [['limit', 'allow_override_limit', 'limit'], ['tags', 'allow_override_tags', 'tags'], ['skip_tags', 'allow_override_skip_tags', 'skip-tags']] as const;
  for (const [key, allow, what] of lists) {
    if (given[key] === undefined || given[key] === null) continue;
    const value = given[key];
    const list = (Array.isArray(value) ? value.map(String) : String(value).split(',')).map((s) => s.trim()).filter(Boolean);
    if (p[allow]) params[key] = list;
    else if (list.length && list.join(',') !== ownList(p[key]).join(',')) notApplied(launch, key, list.join(','), what);
  }
  refuseLimitReadingFiles((params.limit ?? []) as string[], launch.editor);
  return params;
}

/** The template's own limit/tags list (an array, or a comma-separated string). */
function ownList(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [];
  return list.map((s) => s.trim()).filter(Boolean);
}
