import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/database.ts';
import type { TaskRow, TemplateRow, UserRow } from '../../../db/schema.ts';
import type { NewTaskInput } from '../enqueue-task.ts';
import type { TaskInput } from '../task.ts';
import type { StartPath } from './start-paths.ts';

// The words of the launch function (launch-task.ts), apart from it so that its rules can name them.

/**
 * Who or what starts a task.
 * - `user`: the person it starts for (the caller, or the person who started a workflow run);
 *   null for a trigger nobody pressed (schedule, webhook, autorun). A person must be allowed
 *   to run tasks in the project.
 * - `valuesFrom`: who chose the values. `caller`: the person starting, judged by their role (one
 *   who may not edit the template passes only survey answers and no arguments); `configuration`:
 *   a schedule, integration, workflow or template saved by someone who may edit templates.
 * - `outsideValues`: some values came from outside (a webhook's payload, a workflow's outputs):
 *   they are data, never code (Ansible gets them marked unsafe).
 */
export interface Starter {
  path: StartPath;
  user: UserRow | null;
  /** the user's permission bits in the project (0 for a trigger; a system admin passes anyway) */
  permissions: number;
  valuesFrom: 'caller' | 'configuration';
  outsideValues?: boolean;
  scheduleId?: number;
  integrationId?: number;
  /**
   * For a trigger nobody pressed (schedule, webhook): who it acts for, the person who last saved
   * it; its start passes the template's grants only as theirs would. null: a trigger without an
   * owner (saved before owners were kept, or its owner deleted), refused by a template with grants;
   * left out: a start acting for nobody by design (autorun).
   */
  ownerId?: number | null;
  /** runs inside the queuing transaction after the insert (a workflow claims its node there); throwing undoes the start */
  onInsert?: (tx: Tx, task: TaskRow) => Promise<void>;
  /** the path's own rules, checked after every common one (a path may add rules, never drop one) */
  rules?: readonly LaunchRule[];
}

/** What is asked for: the body of `POST /api/project/{id}/tasks`, whatever the path. */
export interface LaunchRequest {
  projectId: number;
  input: TaskInput;
}

/** One start as the rules see it; each rule reads the request and fills in `task`. */
export interface Launch {
  readonly deps: Deps;
  readonly starter: Starter;
  readonly input: TaskInput;
  readonly template: TemplateRow;
  /** the template's `task_params` (what it lets a run choose, its own limit/tags …) */
  readonly templateParams: Record<string, unknown>;
  /** the values may do what editing the template could (set by the caller-role rule) */
  editor: boolean;
  /** the task to queue */
  task: NewTaskInput;
  /** what was asked for and not applied (an override the template does not allow), one sentence each */
  notes: string[];
  /** tasks this start supersedes, stopped once it is queued (a `cancel_previous` template) */
  stops: number[];
}

/**
 * One rule of starting a task. `check` runs before anything is written and refuses by
 * throwing an ApiError (its message is the text every path shows). `admit` runs inside the
 * queuing transaction, just before the insert: the place for rules that must see the queue
 * as it is (the template still enabled; per-template limits, locks, rate limits, priorities).
 * `queued` runs after the commit, for what the start does to other tasks.
 */
export interface LaunchRule {
  readonly name: string;
  check?(launch: Launch): void | Promise<void>;
  admit?(tx: Tx, launch: Launch): Promise<void>;
  /** runs once the task is queued (the transaction committed): what a start does to others */
  queued?(launch: Launch, task: TaskRow): Promise<void>;
}
