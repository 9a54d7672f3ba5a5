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
import { prepareRepository, workingCopyDirName, type CacheUse } from '../git/prepare-repository.ts';
import { hostSshConfig, repositoryKeyFor } from './host-keys.ts';
import { loadTaskDetails, parseObject, type TaskDetails } from './task-details.ts';
import { SecretFiles } from './secret-files.ts';
import { stateBackendEnv } from '../../domain/terraform/task-state-credentials.ts';
import { appCommandOverride } from '../../domain/apps/app-catalog.ts';
import { gitProcessEnv } from '../git/git-env.ts';
import { SOURCE_TYPES } from '../../domain/inventories/inventory.ts';
import { scriptsRunAsServer, syncInventory, writeInventoryText } from '../inventory/inventory-sync.ts';
import { giveToTaskUser, lendToTaskUser, lendWhenFree, returnFromTaskUser, type TaskUser } from '../process/task-user.ts';
import { SERVER_USER, type TaskIdentity, type TaskIdentitySource } from '../process/task-identity.ts';
import { secretValuesOf } from './secret-values.ts';
import { StorageReadError } from './storage-secrets.ts';
import { mintTaskToken } from '../../identity/task-token.ts';
import { recordProcessGroup, TASK_MARKER_VAR } from '../queue/task-processes.ts';
import { retryWhileUnavailable } from '../../db/db-faults.ts';
import { TaskSummaryRecorder } from '../summary/task-summary-recorder.ts';
import { saveTaskOutputs, workflowTaskContext, type WorkflowTaskContext } from '../../domain/workflows/workflow-task.ts';
import { readTaskOutputs } from '../../domain/workflows/workflow-outputs.ts';
import { ANSIBLE_OUTPUTS_CALLBACK } from '../apps/ansible-outputs-callback.ts';
import { keepCapturedFacts, prepareFactsCapture, type FactsCapture } from './facts-capture.ts';
import { containerPlanFor, fileOwnerOf, type ContainerPlan } from '../container/container-plan.ts';
import { CONTAINER_IDENTITY, TaskContainer } from '../container/task-container.ts';

/** Server variables git may need: proxies and CA bundles, besides `forwarded_env_vars`. */
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
  #files: SecretFiles;
  readonly #identities: TaskIdentitySource;
  /** who this run's processes are, from its identity */
  #user: TaskUser | null = null;
  #account: TaskIdentity['account'] = null;
  /** the container the task's commands run in (issue 47), once started; its plan from the task's settings */
  #container: TaskContainer | null = null;
  #plan: ContainerPlan | null = null;
  /** clones handed to the task user for this run, taken back when it ends */
  readonly #lent: string[] = [];
  /** this run's own working copies of repositories, removed when it ends (the object caches stay) */
  readonly #workingCopies: string[] = [];
  /** aborted by a stop: a run still waiting for an identity or a repository gives up */
  readonly #stopSignal = new AbortController();
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

  constructor(deps: Deps, task: TaskRow, secret: Record<string, string>, identities: TaskIdentitySource = SERVER_USER, options: { jwt?: string | null; workflow?: WorkflowTaskContext | null } = {}) {
    this.#deps = deps;
    this.#presetJwt = options.jwt;
    this.#presetFlow = options.workflow;
    this.task = task;
    this.#secret = secret;
    this.#identities = identities;
    this.#out = new TaskOutputWriter(deps, task);
    this.#summary = new TaskSummaryRecorder(deps.db, task, () => this.#out.flush());
    this.#files = this.#secretFiles();
  }

  #secretFiles(): SecretFiles {
    return new SecretFiles(this.#secretsDir, this.#owner);
  }

  get #secretsDir(): string {
    return join(this.#deps.config.tmp_path, `secrets_${this.task.id}`);
  }

  /** The host-only folder of a container task: its environment files and registry credentials. */
  get #containerDir(): string {
    return join(this.#deps.config.tmp_path, `container_${this.task.id}`);
  }

  /** Who owns the task's files: the task user, or in a container its numeric `uid[:gid]`. */
  get #owner(): TaskUser | null {
    if (!this.#plan) return this.#user;
    const owner = fileOwnerOf(this.#plan.user);
    return owner ? { ...owner, chroot: '' } : null;
  }

  /** Stops the run: SIGTERM then SIGKILL after the grace period, or SIGKILL at once with force. */
  kill(force: boolean): void {
    this.#stopRequested = true;
    this.#stopSignal.abort();
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
    let identity: TaskIdentity | null = null;
    let facts: FactsCapture | null = null;
    // Whatever happens below, the task must leave its active status and its files must go.
    try {
      this.#summary.beginStage('init');
      this.log(`Started: ${this.task.id}`);
      const details = await loadTaskDetails(this.#deps.db, this.#deps.secrets, this.task, await this.#taskToken(), config.secret_sources);
      this.#plan = containerPlanFor(details, config.executor);
      // a container is the run's identity: its commands run inside it, git on the host as the server
      identity = this.#plan ? CONTAINER_IDENTITY : await this.#identities.acquire(this.#stopSignal.signal, (line) => this.log(line));
      this.#user = identity.user;
      this.#account = identity.account;
      this.#files = this.#secretFiles();
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
      prepareTmpPath(config.tmp_path, this.#identities.kind !== 'server');
      mkdirSync(taskDir, { recursive: true, mode: 0o700 });
      // a task user's TMPDIR: inside its own folder, not the shared /tmp
      if (this.#user) mkdirSync(join(taskDir, 'tmp'), { mode: 0o700 });
      if (flow) details.workflow = prepareWorkflowFiles(flow, taskDir);
      if ((details.template.app || 'ansible') === 'ansible') facts = prepareFactsCapture(taskDir);
      giveToTaskUser(taskDir, this.#owner);
      const outcome = await this.#runApp(details, taskDir, facts);
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
      // a failed or stopped run's gathered facts are as true as a successful one's
      if (facts) await this.#keepFacts(facts);
      const notRemoved = await this.#container?.remove();
      if (notRemoved) this.log(`Removing the task's container failed: ${notRemoved}`);
      for (const dir of this.#lent.splice(0)) returnFromTaskUser(dir, this.#owner);
      this.#files.removeAll();
      rmSync(taskDir, { recursive: true, force: true });
      rmSync(this.#secretsDir, { recursive: true, force: true });
      if (this.#plan) rmSync(this.#containerDir, { recursive: true, force: true });
      for (const dir of this.#workingCopies.splice(0)) rmSync(dir, { recursive: true, force: true });
      await identity?.release().catch((err: Error) => this.log(`Releasing the task user failed: ${err.message}`));
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

  async #keepFacts(capture: FactsCapture): Promise<void> {
    try {
      await keepCapturedFacts(this.#deps.db, this.task, capture);
    } catch (err) {
      this.log(`Storing the gathered host facts failed: ${(err as Error).message}`);
    }
  }

  async #runApp(details: TaskDetails, taskDir: string, facts: FactsCapture | null): Promise<AppOutcome> {
    const deps = this.#deps;
    const { template, task } = details;
    refuseEscapingPaths(details);
    const gitEnv = gitProcessEnv(deps.config);
    const exec = (command: string, args: string[], cwd: string, env: Record<string, string>) => this.#exec({ command, args, cwd, env }, null);
    let repoDir = taskDir;
    const sshConfigPath = hostSshConfig(details.hostKeys, this.#files, null, details.templateKeys) ?? undefined;
    const common = { sshConfigPath, tmpPath: deps.config.tmp_path, baseEnv: gitEnv, files: this.#files, exec, log: (l: string) => this.log(l), user: this.#user, cache: this.#cacheUse() };
    if (details.repository) {
      const branch = (template.allow_override_branch_in_task && task.git_branch) || template.git_branch || details.repository.git_branch;
      await this.#lendSource(details.repository.git_url);
      const dirName = this.#workingCopy(workingCopyDirName(details.repository.id, task.id));
      const checkout = await prepareRepository({
        ...common, repository: details.repository, key: repositoryKeyFor(details.repository.git_url, details.repositoryKey, details.hostKeys), dirName,
        branch, commitHash: task.commit_hash, anyBranch: Boolean(template.allow_override_branch_in_task),
      });
      repoDir = checkout.dir;
      if (checkout.commitHash) {
        await deps.db.updateTable('task').set({ commit_hash: checkout.commitHash, commit_message: checkout.commitMessage }).where('id', '=', task.id).execute();
        details.task = { ...task, commit_hash: checkout.commitHash, commit_message: checkout.commitMessage };
      }
    }
    let inventoryRepoDir: string | null = null;
    if ((details.inventory?.type === 'file' || details.inventory?.type === 'script') && details.inventoryRepository) {
      const checkout = await prepareRepository({
        ...common, repository: details.inventoryRepository, key: repositoryKeyFor(details.inventoryRepository.git_url, details.inventoryRepositoryKey, details.hostKeys),
        dirName: this.#workingCopy(`inventory_${task.id}`), branch: details.inventoryRepository.git_branch, commitHash: null,
      });
      inventoryRepoDir = checkout.dir;
    }
    const sourceInventory = details.inventory && SOURCE_TYPES.includes(details.inventory.type) ? await this.#syncOnLaunch(details.inventory, taskDir) : null;
    const options = await appCommandOverride(deps.db, deps.config, template.app || 'ansible');
    if (this.#plan) this.#container = await this.#startContainer(this.#plan, [taskDir, repoDir, inventoryRepoDir]);
    const container = this.#container;
    const ctx: AppContext = {
      config: deps.config, details, repoDir, inventoryRepoDir, sourceInventory, taskDir, facts,
      serverEnv: container ? forwardedOnly(process.env, deps.config.forwarded_env_vars) : process.env,
      params: parseObject(task.params), templateParams: parseObject(template.task_params),
      vars: mergeRunVariables(details, this.#secret, deps.config.web_host),
      files: this.#files, appPath: options.path, appArgs: options.args,
      log: (line) => this.log(line),
      exec: (spec) => this.#exec(spec, container),
      beginStage: (type) => this.#summary.beginStage(type),
      // the lines before a status change (a plan before its confirmation) are stored before it
      setStatus: async (to) => {
        await this.#out.flush();
        return Boolean(await setTaskStatus(deps, task.id, to));
      },
      waitForDecision: () => this.#waitForDecision(),
      stateBackendEnv: () => stateBackendEnv(deps, task, details.inventory),
    };
    return appFor(template.app).run(ctx);
  }

  /**
   * Syncs a url or script inventory as the task starts, recorded as the task's: a url's fetched
   * text becomes the task's inventory (its path returned); a script is run by ansible-playbook
   * itself from the inventory's checkout, and recorded here only when scripts may run as the server.
   */
  async #syncOnLaunch(inventory: NonNullable<TaskDetails['inventory']>, taskDir: string): Promise<string | null> {
    if (inventory.type === 'script' && !scriptsRunAsServer(this.#deps)) {
      this.log('Inventory script: read by ansible-playbook as the task user (no sync recorded)');
      return null;
    }
    const { sync, content } = await syncInventory(this.#deps, inventory, { userId: this.task.user_id ?? null, taskId: this.task.id });
    if (sync.error !== null) throw new Error(`Inventory sync failed: ${sync.error}`);
    this.log(`Inventory synced: ${sync.host_count} hosts, ${sync.hosts_added.length} added, ${sync.hosts_removed.length} removed`);
    if (content === null) return null;
    return writeInventoryText(taskDir, content, (path, text, mode) => this.#files.writeAt(path, text, mode)).path;
  }

  /**
   * A task user clones for itself: a repository under tmp_path it clones from (the demo
   * repository) is lent to it for the run and taken back when it ends, waiting while another
   * task user holds it. A local repository elsewhere is the administrator's: used as it is.
   */
  async #lendSource(gitUrl: string): Promise<void> {
    if (!this.#user) return;
    const source = gitUrl.startsWith('file://') ? gitUrl.slice('file://'.length) : gitUrl;
    if (!source.startsWith('/') || !isInside(this.#deps.config.tmp_path, source)) return;
    await lendWhenFree(source, this.#user, this.#stopSignal.signal, () => this.log(`Waiting for the repository ${source}: another running task holds it`));
    this.#lent.push(source);
  }

  /** Notes a working copy of this run (under tmp_path) to remove when it ends; returns its name. */
  #workingCopy(dirName: string): string {
    this.#workingCopies.push(join(this.#deps.config.tmp_path, dirName));
    return dirName;
  }

  /**
   * Working copies borrow from the repository's object cache when git runs as the server. A
   * task user clones for itself instead: it may not read the server's cache, and the server
   * never runs git where a task user could have written. A container sees only its mounted
   * working copy, so that one gets copies of the objects rather than borrowing them.
   */
  #cacheUse(): CacheUse | null {
    if (this.#user) return null;
    const exec = (command: string, args: string[], cwd: string, env: Record<string, string>) => this.#exec({ command, args, cwd, env }, null, true);
    return { exec, signal: this.#stopSignal.signal, selfContained: this.#owner !== null };
  }

  /**
   * Starts the task's container with the folders it works in mounted at their own paths (the
   * secrets read-only), lent to the container's numeric user; the task row notes the image
   * first, so a crash in between still finds the container.
   */
  async #startContainer(plan: ContainerPlan, workDirs: (string | null)[]): Promise<TaskContainer> {
    await this.#deps.db.updateTable('task').set({ executor_image: plan.image }).where('id', '=', this.task.id).execute();
    mkdirSync(this.#secretsDir, { recursive: true, mode: 0o700 });
    giveToTaskUser(this.#secretsDir, this.#owner);
    const dirs = [...new Set(workDirs.filter((d): d is string => d !== null))].filter((dir, _, all) => !all.some((other) => isInside(other, dir)));
    // a local repository outside tmp_path is the administrator's: used as it is
    for (const dir of dirs.filter((d) => d !== this.#taskDir && isInside(this.#deps.config.tmp_path, d))) {
      if (!lendToTaskUser(dir, this.#owner)) throw new Error(`${dir} is held by another running task's user; run the task again when it ends`);
      this.#lent.push(dir);
    }
    this.log(`Running in a container of ${plan.image} (${plan.engine}, network ${plan.network})`);
    const container = await TaskContainer.start({
      plan, task: this.task, tmpPath: this.#deps.config.tmp_path, privateDir: this.#containerDir, log: (line) => this.log(line),
      mounts: [...dirs.map((path) => ({ path, readOnly: false })), { path: this.#secretsDir, readOnly: true }],
    });
    if (this.#stopRequested) {
      this.#container = container;
      throw new StopRequested();
    }
    return container;
  }

  /** `asServer`: git in the repository's object cache, which is the server's and never the task user's. */
  async #exec(spec: ExecSpec, container: TaskContainer | null, asServer = false): Promise<void> {
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
    const env = { ...spec.env, ...(asServer ? {} : this.#identityEnv(container !== null)), [TASK_MARKER_VAR]: String(this.task.id) };
    const proc = container ? container.exec({ ...spec, env }, sink) : startProcess({ ...spec, env, user: asServer ? null : this.#user }, sink);
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

  /**
   * A task user gets a HOME of its own (its pool account's, else inside the task's directory,
   * not the shared tmp_path) and a TMPDIR inside the task's directory; a pool account also
   * gets its name as USER and LOGNAME (ansible finds its temporary folder by them). A command
   * in a container gets the task's directory as HOME (its /tmp is the container's own).
   */
  #identityEnv(inContainer: boolean): Record<string, string> {
    if (inContainer) return { HOME: this.#taskDir };
    if (!this.#user) return {};
    const names: Record<string, string> = this.#account ? { USER: this.#account.name, LOGNAME: this.#account.name } : {};
    return { HOME: this.#account?.home ?? this.#taskDir, TMPDIR: join(this.#taskDir, 'tmp'), ...names };
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
 * tmp_path holds every task's files: only the server may list it. Task users may pass through
 * (0711) to reach their own folders, which are 0700 and their own — also while this run is in a
 * container (a container mounts its folders and needs no passage).
 */
function prepareTmpPath(tmpPath: string, taskUsers: boolean): void {
  mkdirSync(tmpPath, { recursive: true, mode: 0o700 });
  const stat = statSync(tmpPath);
  // A shared folder such as /tmp itself (sticky bit, or not ours) is left as it is.
  if (stat.uid !== process.getuid!() || stat.mode & 0o1000) return;
  chmodSync(tmpPath, taskUsers ? 0o711 : 0o700);
}

function isInside(parent: string, path: string): boolean {
  const rel = relative(resolve(parent), resolve(path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Only the server variables the administrator forwards on purpose (`forwarded_env_vars`). */
function forwardedOnly(env: NodeJS.ProcessEnv, names: string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));
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
