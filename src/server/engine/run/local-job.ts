import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { refuseEscapingPaths } from './run-paths.ts';
import type { Deps } from '../../deps.ts';
import type { TaskRow } from '../../db/schema.ts';
import { TaskOutputWriter } from '../output/task-output-writer.ts';
import { startProcess, type RunningProcess } from '../process/run-process.ts';
import { setTaskStatus, type TaskStatus } from '../../domain/tasks/task-status.ts';
import { appFor } from '../apps/app-factory.ts';
import type { AppContext, AppOutcome, ExecSpec } from '../apps/app.ts';
import { mergeRunVariables } from '../apps/extra-vars.ts';
import { surveyVarsOf } from '../../domain/templates/stored-survey-vars.ts';
import { prepareRepository } from '../git/prepare-repository.ts';
import { hostSshConfig, repositoryKeyFor } from './host-keys.ts';
import { loadTaskDetails, parseObject, type TaskDetails } from './task-details.ts';
import { SecretFiles } from './secret-files.ts';
import { stateBackendEnv } from '../../domain/terraform/task-state-credentials.ts';
import { appCommandOverride } from '../../domain/apps/app-catalog.ts';
import { giveToTaskUser, lendToTaskUser, returnFromTaskUser, type TaskUser } from '../process/task-user.ts';
import { secretValuesOf } from './secret-values.ts';
import { StorageReadError } from './storage-secrets.ts';
import { mintTaskToken } from '../../identity/task-token.ts';
import { recordProcessGroup, TASK_MARKER_VAR } from '../queue/task-processes.ts';
import { retryWhileUnavailable } from '../../db/db-faults.ts';
import { TaskSummaryRecorder } from '../summary/task-summary-recorder.ts';
import { saveTaskOutputs, workflowTaskContext, type WorkflowTaskContext } from '../../domain/workflows/workflow-task.ts';
import { readTaskOutputs } from '../../domain/workflows/workflow-outputs.ts';
import { ANSIBLE_OUTPUTS_CALLBACK } from '../apps/ansible-outputs-callback.ts';

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
  readonly #user: TaskUser | null;
  /** clones handed to the task user for this run, taken back when it ends */
  readonly #lent: string[] = [];
  #taskDir = '';
  readonly #summary: TaskSummaryRecorder;
  #process: RunningProcess | null = null;
  #stopRequested = false;
  #timedOut = false;
  #decide: ((d: Decision) => void) | null = null;

  /** a token minted elsewhere (the server, for a remote runner); undefined: mint one here when asked */
  readonly #presetJwt: string | null | undefined;
  /** the workflow run the task belongs to, told by the server (remote runner); undefined: look it up here */
  readonly #presetFlow: WorkflowTaskContext | null | undefined;

  constructor(deps: Deps, task: TaskRow, secret: Record<string, string>, user: TaskUser | null = null, options: { jwt?: string | null; workflow?: WorkflowTaskContext | null } = {}) {
    this.#deps = deps;
    this.#presetJwt = options.jwt;
    this.#presetFlow = options.workflow;
    this.task = task;
    this.#secret = secret;
    this.#user = user;
    this.#out = new TaskOutputWriter(deps, task);
    this.#summary = new TaskSummaryRecorder(deps.db, task, () => this.#out.flush());
    this.#files = new SecretFiles(join(deps.config.tmp_path, `secrets_${task.id}`), user);
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
    this.#taskDir = taskDir;
    let final: TaskStatus = 'error';
    let timer: NodeJS.Timeout | null = null;
    // Whatever happens below, the task must leave its active status and its files must go.
    try {
      this.#summary.beginStage('init');
      this.log(`Started: ${this.task.id}`);
      const details = await loadTaskDetails(this.#deps.db, this.#deps.secrets, this.task, await this.#taskToken());
      const flow = this.#presetFlow !== undefined ? this.#presetFlow : await workflowTaskContext(this.#deps.db, this.task.id, config.web_host).catch(() => null);
      for (const line of flow?.inputLines ?? []) this.log(line);
      this.#out.maskSecrets(secretValuesOf(details, this.#secret));
      if ((details.template.app || 'ansible') === 'ansible') this.#summary.readAnsible();
      this.log(`Run TaskRunner with template: ${details.template.name}`);
      assertSecretsPresent(details, this.#secret);
      if (!(await setTaskStatus(this.#deps, this.task.id, 'running', {}, this.task))) throw new StopRequested();
      if (config.max_task_duration_sec > 0) {
        timer = setTimeout(() => {
          this.#timedOut = true;
          this.kill(false);
        }, config.max_task_duration_sec * 1000);
      }
      prepareTmpPath(config.tmp_path, this.#user);
      mkdirSync(taskDir, { recursive: true, mode: 0o700 });
      if (flow) details.workflow = prepareWorkflowFiles(flow, taskDir);
      giveToTaskUser(taskDir, this.#user);
      const outcome = await this.#runApp(details, taskDir);
      final = this.#stopRequested ? 'stopped' : outcome;
      if (final === 'success' && details.workflow) final = await this.#keepOutputs(details.workflow.outputsFile);
    } catch (err) {
      if (this.#timedOut) {
        final = 'error';
      } else if (err instanceof StorageReadError) {
        this.log(err.message);
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
      for (const dir of this.#lent.splice(0)) returnFromTaskUser(dir, this.#user);
      this.#files.removeAll();
      rmSync(taskDir, { recursive: true, force: true });
      rmSync(join(config.tmp_path, `secrets_${this.task.id}`), { recursive: true, force: true });
      await this.#summary.close();
      await this.#out.close();
    }
    // The database may be away right now (PostgreSQL restarting, SQLite locked): the end must land anyway.
    const warn = (err: Error) => console.warn(`[engine] task ${this.task.id}: cannot record its end yet (${err.message}); retrying`);
    const ended = await retryWhileUnavailable(() => setTaskStatus(this.#deps, this.task.id, final), warn);
    const row = ended ?? (await retryWhileUnavailable(() => this.#deps.db.selectFrom('task').select('status').where('id', '=', this.task.id).executeTakeFirst()));
    return (row?.status ?? final) as TaskStatus;
  }

  /** The task's identity token: the one handed over with the job, else minted now when its template asks for one. */
  async #taskToken(): Promise<string | null> {
    if (this.#presetJwt !== undefined) return this.#presetJwt;
    const template = await this.#deps.db.selectFrom('template').selectAll().where('id', '=', this.task.template_id).executeTakeFirst();
    return template ? mintTaskToken(this.#deps, this.task, template) : null;
  }

  /**
   * Reads and stores what the task wrote to SEMAPHORE_OUTPUTS_FILE; a file that breaks the
   * rules (not a JSON object, a bad name, over a limit) fails the task, with the reason logged.
   */
  async #keepOutputs(file: string): Promise<TaskStatus> {
    try {
      const { outputs, notCaptured } = readTaskOutputs(readFileSync(file, 'utf8'), existsSync(`${file}.not-captured`) ? readFileSync(`${file}.not-captured`, 'utf8') : '');
      await saveTaskOutputs(this.#deps.db, this.task.id, outputs, notCaptured);
      if (Object.keys(outputs).length) this.log(`Outputs: ${Object.keys(outputs).join(', ')}`);
      return 'success';
    } catch (err) {
      this.log(`Outputs rejected: ${(err as Error).message}`);
      return 'error';
    }
  }

  async #runApp(details: TaskDetails, taskDir: string): Promise<AppOutcome> {
    const deps = this.#deps;
    const { template, task } = details;
    refuseEscapingPaths(details);
    const gitEnv = gitProcessEnv(deps.config);
    const exec = (command: string, args: string[], cwd: string, env: Record<string, string>) => this.#exec({ command, args, cwd, env });
    let repoDir = taskDir;
    const sshConfigPath = hostSshConfig(details.hostKeys, this.#files, null, details.templateKeys) ?? undefined;
    if (details.repository) {
      const branch = (template.allow_override_branch_in_task && task.git_branch) || template.git_branch || details.repository.git_branch;
      const dirName = `repository_${details.repository.id}_${template.id}`;
      this.#lendRepository(details.repository.git_url, join(deps.config.tmp_path, dirName));
      const checkout = await prepareRepository({
        repository: details.repository, key: repositoryKeyFor(details.repository.git_url, details.repositoryKey, details.hostKeys), dirName, sshConfigPath,
        tmpPath: deps.config.tmp_path, branch, commitHash: task.commit_hash, baseEnv: gitEnv, files: this.#files, exec, log: (l) => this.log(l), user: this.#user,
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
        repository: details.inventoryRepository, key: repositoryKeyFor(details.inventoryRepository.git_url, details.inventoryRepositoryKey, details.hostKeys),
        dirName: `inventory_${task.id}`, sshConfigPath,
        tmpPath: deps.config.tmp_path, branch: details.inventoryRepository.git_branch, commitHash: null, baseEnv: gitEnv, files: this.#files, exec, log: (l) => this.log(l), user: this.#user,
      });
      inventoryRepoDir = checkout.dir;
    }
    const options = await appCommandOverride(deps.db, deps.config, template.app || 'ansible');
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
      stateBackendEnv: () => stateBackendEnv(deps, task, details.inventory),
    };
    try {
      return await appFor(template.app).run(ctx);
    } finally {
      if (inventoryRepoDir) rmSync(inventoryRepoDir, { recursive: true, force: true });
    }
  }

  /**
   * Repositories under tmp_path (clones, and the demo repository they are cloned from) belong
   * to the task user while it runs and are taken back afterwards — even a clone that failed
   * halfway. A local repository elsewhere is the administrator's: it is used as it is.
   */
  #lendRepository(gitUrl: string, cloneDir: string): void {
    if (!this.#user) return;
    const source = gitUrl.startsWith('file://') ? gitUrl.slice('file://'.length) : gitUrl;
    if (source.startsWith('/') && isInside(this.#deps.config.tmp_path, source)) this.#lend(source);
    // the clone may not exist yet: prepareRepository hands it over once made; the count starts here
    if (!gitUrl.startsWith('/')) this.#lend(cloneDir);
  }

  #lend(path: string): void {
    this.#lent.push(path);
    lendToTaskUser(path, this.#user);
  }

  async #exec(spec: ExecSpec): Promise<void> {
    if (this.#stopRequested) throw new StopRequested();
    const out = this.#out;
    const sink = {
      write: (line: string, time: string) => {
        spec.onLine?.(line);
        if (spec.quiet) return true;
        this.#summary.line(line);
        return out.write(line, time);
      },
      drained: () => out.drained(),
    };
    // A task user gets a HOME of its own inside the task's directory, not the shared tmp_path.
    const env = { ...spec.env, ...(this.#user ? { HOME: this.#taskDir } : {}), [TASK_MARKER_VAR]: String(this.task.id) };
    const proc = startProcess({ ...spec, env, user: this.#user }, sink);
    this.#process = proc;
    if (proc.pid !== undefined) void recordProcessGroup(this.#deps.db, this.task.id, proc.pid).catch(() => undefined);
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

/**
 * tmp_path holds every task's files: only the server may list it. A task user may pass through
 * (0711) to reach its own folders, which are 0700 and its own.
 */
function prepareTmpPath(tmpPath: string, user: TaskUser | null): void {
  mkdirSync(tmpPath, { recursive: true, mode: 0o700 });
  const stat = statSync(tmpPath);
  // A shared folder such as /tmp itself (sticky bit, or not ours) is left as it is.
  if (stat.uid !== process.getuid!() || stat.mode & 0o1000) return;
  chmodSync(tmpPath, user ? 0o711 : 0o700);
}

function isInside(parent: string, path: string): boolean {
  const rel = relative(resolve(parent), resolve(path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
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

/** The empty outputs file and the Ansible callback of a workflow task, inside its task directory. */
function prepareWorkflowFiles(flow: WorkflowTaskContext, taskDir: string): NonNullable<TaskDetails['workflow']> {
  const outputsFile = join(taskDir, 'semaphore_outputs.json');
  writeFileSync(outputsFile, '', { mode: 0o600 });
  const callbackDir = join(taskDir, 'semaphore_callbacks');
  mkdirSync(callbackDir, { mode: 0o700 });
  writeFileSync(join(callbackDir, 'semaphore_outputs.py'), ANSIBLE_OUTPUTS_CALLBACK, { mode: 0o600 });
  return { workflowId: flow.workflowId, runId: flow.runId, url: flow.url, outputsFile, callbackDir };
}
