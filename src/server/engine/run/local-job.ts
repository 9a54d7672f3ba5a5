import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Deps } from '../../deps.ts';
import type { TaskRow } from '../../db/schema.ts';
import { TaskOutputWriter } from '../output/task-output-writer.ts';
import { startProcess, type RunningProcess } from '../process/run-process.ts';
import { setTaskStatus, type TaskStatus } from '../task-status.ts';
import { appFor } from '../apps/app-factory.ts';
import type { AppContext, AppOutcome, ExecSpec } from '../apps/app.ts';
import { readAppOptions } from '../apps/app-options.ts';
import { mergeRunVariables, surveyVarsOf } from '../apps/extra-vars.ts';
import { prepareRepository } from '../git/prepare-repository.ts';
import { loadTaskDetails, parseObject, type TaskDetails } from './task-details.ts';
import { SecretFiles } from './secret-files.ts';
import { TaskSummaryRecorder } from '../summary/task-summary-recorder.ts';

/** Server variables git may need: proxies and CA bundles, besides `forwarded_env_vars`. */
const GIT_SERVER_VARS = ['PATH', 'LANG', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'SSL_CERT_FILE', 'GIT_SSL_CAINFO'];

/** How often a task waiting for confirmation re-reads its status (decisions made by another server). */
const DECISION_POLL_MS = 1000;

type Decision = 'confirmed' | 'rejected' | 'stopped';

/** Thrown inside a run when a stop was requested; the task ends `stopped`. */
class StopRequested extends Error {}

/**
 * Runs one claimed task on this machine: load and decrypt its details, check out the
 * repository, run the template's app with live output, and record how it ended. `kill` is how
 * stop, force stop and the duration limit reach it (Semaphore's Job { Run, Kill }).
 * @example const job = new LocalJob(deps, claimedTask, secret); await job.run();
 */
export class LocalJob {
  readonly task: TaskRow;
  readonly #deps: Deps;
  readonly #secret: Record<string, string>;
  readonly #out: TaskOutputWriter;
  readonly #files: SecretFiles;
  readonly #summary: TaskSummaryRecorder;
  #process: RunningProcess | null = null;
  #stopRequested = false;
  #timedOut = false;
  #decide: ((d: Decision) => void) | null = null;

  constructor(deps: Deps, task: TaskRow, secret: Record<string, string>) {
    this.#deps = deps;
    this.task = task;
    this.#secret = secret;
    this.#out = new TaskOutputWriter(deps, task);
    this.#summary = new TaskSummaryRecorder(deps.db, task, () => this.#out.flush());
    this.#files = new SecretFiles(join(deps.config.tmp_path, `secrets_${task.id}`));
  }

  /** Stops the run: SIGTERM then SIGKILL after the grace period, or SIGKILL at once with force. */
  kill(force: boolean): void {
    this.#stopRequested = true;
    this.#process?.kill(force);
    this.#decide?.('stopped');
  }

  /** Status changes made by others (API routes) for this task. */
  notify(status: string): void {
    if (status === 'stopping') this.kill(false);
    else if (status === 'stopped') this.kill(true);
    else if (status === 'confirmed' || status === 'rejected') this.#decide?.(status);
  }

  log(line: string): void {
    this.#summary.line(line);
    this.#out.write(line);
  }

  /** Runs to the end; never throws. Resolves with the status the task ended in. */
  async run(): Promise<TaskStatus> {
    const { config } = this.#deps;
    const taskDir = join(config.tmp_path, `task_${this.task.id}`);
    let final: TaskStatus = 'error';
    let timer: NodeJS.Timeout | null = null;
    // Whatever happens below, the task must leave its active status and its files must go.
    try {
      this.#summary.beginStage('init');
      this.log(`Started: ${this.task.id}`);
      const details = await loadTaskDetails(this.#deps.db, this.#deps.secrets, this.task);
      if ((details.template.app || 'ansible') === 'ansible') this.#summary.readAnsible();
      this.log(`Run TaskRunner with template: ${details.template.name}`);
      assertSecretsPresent(details, this.#secret);
      if (!(await setTaskStatus(this.#deps, this.task.id, 'running'))) throw new StopRequested();
      if (config.max_task_duration_sec > 0) {
        timer = setTimeout(() => {
          this.#timedOut = true;
          this.kill(false);
        }, config.max_task_duration_sec * 1000);
      }
      mkdirSync(config.tmp_path, { recursive: true, mode: 0o700 });
      mkdirSync(taskDir, { recursive: true, mode: 0o700 });
      const outcome = await this.#runApp(details, taskDir);
      final = this.#stopRequested ? 'stopped' : outcome;
    } catch (err) {
      if (this.#timedOut) {
        final = 'error';
      } else if (this.#stopRequested || err instanceof StopRequested) {
        this.log('Task stopped');
        final = 'stopped';
      } else {
        this.log(`Running app failed: ${err instanceof Error ? err.message : String(err)}`);
        final = 'error';
      }
    } finally {
      if (timer) clearTimeout(timer);
      if (this.#timedOut) {
        this.log(`Task timed out after ${config.max_task_duration_sec} seconds`);
        final = 'error';
      }
      this.#files.removeAll();
      rmSync(taskDir, { recursive: true, force: true });
      rmSync(join(config.tmp_path, `secrets_${this.task.id}`), { recursive: true, force: true });
      await this.#summary.close();
      await this.#out.close();
    }
    const ended = await setTaskStatus(this.#deps, this.task.id, final);
    const row = ended ?? (await this.#deps.db.selectFrom('task').select('status').where('id', '=', this.task.id).executeTakeFirst());
    return (row?.status ?? final) as TaskStatus;
  }

  async #runApp(details: TaskDetails, taskDir: string): Promise<AppOutcome> {
    const deps = this.#deps;
    const { template, task } = details;
    const gitEnv = gitProcessEnv(deps.config);
    const exec = (command: string, args: string[], cwd: string, env: Record<string, string>) => this.#exec({ command, args, cwd, env });
    let repoDir = taskDir;
    if (details.repository) {
      const branch = (template.allow_override_branch_in_task && task.git_branch) || template.git_branch || details.repository.git_branch;
      const checkout = await prepareRepository({
        repository: details.repository, key: details.repositoryKey, dirName: `repository_${details.repository.id}_${template.id}`,
        tmpPath: deps.config.tmp_path, branch, commitHash: task.commit_hash, baseEnv: gitEnv, files: this.#files, exec, log: (l) => this.log(l),
      });
      repoDir = checkout.dir;
      if (checkout.commitHash) {
        await deps.db.updateTable('task').set({ commit_hash: checkout.commitHash, commit_message: checkout.commitMessage }).where('id', '=', task.id).execute();
        details.task = { ...task, commit_hash: checkout.commitHash, commit_message: checkout.commitMessage };
      }
    }
    let inventoryRepoDir: string | null = null;
    if (details.inventory?.type === 'file' && details.inventoryRepository) {
      const checkout = await prepareRepository({
        repository: details.inventoryRepository, key: details.inventoryRepositoryKey, dirName: `inventory_${task.id}`,
        tmpPath: deps.config.tmp_path, branch: details.inventoryRepository.git_branch, commitHash: null, baseEnv: gitEnv, files: this.#files, exec, log: (l) => this.log(l),
      });
      inventoryRepoDir = checkout.dir;
    }
    const options = await readAppOptions(deps.db, deps.config, template.app || 'ansible');
    const ctx: AppContext = {
      config: deps.config, details, repoDir, inventoryRepoDir, taskDir,
      params: parseObject(task.params), templateParams: parseObject(template.task_params),
      vars: mergeRunVariables(details, this.#secret, deps.config.web_host),
      files: this.#files, appPath: options.path, appArgs: options.args,
      log: (line) => this.log(line),
      exec: (spec) => this.#exec(spec),
      beginStage: (type) => this.#summary.beginStage(type),
      setStatus: async (to) => Boolean(await setTaskStatus(deps, task.id, to)),
      waitForDecision: () => this.#waitForDecision(),
    };
    try {
      return await appFor(template.app).run(ctx);
    } finally {
      if (inventoryRepoDir) rmSync(inventoryRepoDir, { recursive: true, force: true });
    }
  }

  async #exec(spec: ExecSpec): Promise<void> {
    if (this.#stopRequested) throw new StopRequested();
    const out = this.#out;
    const sink = {
      write: (line: string, time: string) => {
        spec.onLine?.(line);
        this.#summary.line(line);
        return out.write(line, time);
      },
      drained: () => out.drained(),
    };
    const proc = startProcess(spec, sink);
    this.#process = proc;
    try {
      const result = await proc.done;
      if (this.#stopRequested) throw new StopRequested();
      if (result.code !== 0) throw new Error(`${spec.command} exited with ${result.code === null ? `signal ${result.signal}` : `code ${result.code}`}`);
    } finally {
      this.#process = null;
    }
  }

  #waitForDecision(): Promise<Decision> {
    if (this.#stopRequested) return Promise.resolve('stopped');
    return new Promise<Decision>((resolve) => {
      const poll = setInterval(() => {
        void this.#deps.db.selectFrom('task').select('status').where('id', '=', this.task.id).executeTakeFirst().then((row) => {
          if (!row) this.#decide?.('stopped');
          else if (row.status === 'confirmed' || row.status === 'rejected') this.#decide?.(row.status);
          else if (row.status === 'stopping' || row.status === 'stopped') this.notify(row.status);
        }, () => {});
      }, DECISION_POLL_MS);
      this.#decide = (decision) => {
        clearInterval(poll);
        this.#decide = null;
        resolve(decision);
      };
    });
  }
}

function gitProcessEnv(config: Deps['config']): Record<string, string> {
  const env: Record<string, string> = { HOME: config.tmp_path };
  for (const name of [...GIT_SERVER_VARS, ...config.forwarded_env_vars]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= '/usr/bin:/bin';
  env.LANG ??= 'C.UTF-8';
  return env;
}

/**
 * Survey secrets live in memory only, so a task queued before a restart has lost them; running
 * it without a required secret would do the wrong thing quietly, so it fails instead.
 */
function assertSecretsPresent(details: TaskDetails, secret: Record<string, string>): void {
  const missing = surveyVarsOf(details.template.survey_vars).filter((v) => v.type === 'secret' && v.required && !(v.name in secret));
  if (missing.length) throw new Error(`the secret value of ${missing.map((v) => v.title || v.name).join(', ')} is gone (secrets are never stored and the server restarted); run the task again`);
}
