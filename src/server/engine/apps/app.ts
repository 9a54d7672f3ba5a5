import type { Config } from '../../config/config.ts';
import type { FactsCapture } from '../run/facts-capture.ts';
import type { TaskDetails } from '../run/task-details.ts';
import type { SecretFiles } from '../run/secret-files.ts';
import type { RunVariables } from './extra-vars.ts';
import type { StageType } from '../summary/task-summary-recorder.ts';

export interface ExecSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** sees every output line as well (terraform looks for "No changes.") */
  onLine?: (line: string) => void;
  /** the lines go to `onLine` only, never to the log (`terraform output -json` holds sensitive values) */
  quiet?: boolean;
}

/** What an app gets from the local job: the loaded task, its files, and ways to run and log. */
export interface AppContext {
  config: Config;
  details: TaskDetails;
  /** repository checkout (or the task dir when the template has none) */
  repoDir: string;
  /** checkout of a `file` inventory's own repository, when it has one */
  inventoryRepoDir: string | null;
  /** a `url` inventory as the sync on launch fetched it, in the task's directory */
  sourceInventory?: string | null;
  /** per-task scratch directory under tmp_path */
  taskDir: string;
  /** an Ansible run's facts callback and the file it writes (engine/run/facts-capture.ts) */
  facts?: FactsCapture | null;
  /** the server variables the task inherits (PATH, locale, forwarded_env_vars): the server's on the host, none in a container */
  serverEnv: NodeJS.ProcessEnv;
  /** task params (ansible: debug, limit...; terraform: plan, destroy...) */
  params: Record<string, unknown>;
  /** template task_params (defaults and allow_override_* flags) */
  templateParams: Record<string, unknown>;
  vars: RunVariables;
  files: SecretFiles;
  /** `apps.<id>.path` / `apps.<id>.args` overrides */
  appPath: string | null;
  appArgs: string[];
  log(line: string): void;
  /** runs a command into the task log; rejects when it exits non-zero or the task is stopped */
  exec(spec: ExecSpec): Promise<void>;
  /** marks where a stage of the task summary begins (the job opens `init` itself) */
  beginStage(type: Exclude<StageType, 'init'>): void;
  /** moves the task (waiting_confirmation, running) through the status guard */
  setStatus(to: 'waiting_confirmation' | 'running'): Promise<boolean>;
  /** waits until someone confirms or rejects (or stops) the task */
  waitForDecision(): Promise<'confirmed' | 'rejected' | 'stopped'>;
  /** `TF_HTTP_*` for the workspace's state backend (empty when the inventory is not a workspace) */
  stateBackendEnv(): Promise<Record<string, string>>;
}

/** How an app run ended when it did not throw. */
export type AppOutcome = 'success' | 'rejected';

/** One per `template.app`: turns the task into commands and runs them. */
export interface App {
  run(ctx: AppContext): Promise<AppOutcome>;
}

/** Parses a JSON array of strings (template/task `arguments`); anything else is empty. */
export function parseArgList(text: string | null | undefined): string[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/** Task `arguments`, only when the template allows overriding them. */
export function taskArgsOf(details: TaskDetails): string[] {
  return details.template.allow_override_args_in_task ? parseArgList(details.task.arguments) : [];
}

/** A list param given as an array or a comma-separated string. */
export function listParam(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).map((s) => s.trim()).filter(Boolean);
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  return [];
}
