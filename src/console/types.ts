/** Shapes of the runner API as the console reads them (reference semaphore-api-develop.yml). */
export interface Project { id: number; name: string; alert: boolean; alert_chat: string | null; max_parallel_tasks: number; type: string; created?: string; executor_image?: string | null }
export interface User { id: number; name: string; username: string; email: string; admin: boolean; can_create_project?: boolean }
export interface ProjectRole { role: string; permissions: number }
export interface SystemInfo { version: string; use_remote_runner: boolean; premium_features?: { project_runners?: boolean } }
/** One stage of a task's run (`GET .../tasks/{id}/stages`). */
export interface TaskStage {
  id: number; task_id: number; type: string; start: string | null; end: string | null;
  start_output_id: number | null; end_output_id: number | null; result: unknown;
}

/** One host's PLAY RECAP counts (`GET .../tasks/{id}/ansible/hosts`). */
export interface AnsibleTaskHost {
  id: number; task_id: number; host: string; ok: number; changed: number; unreachable: number;
  failed: number; skipped: number; rescued: number; ignored: number;
}

/** A failed or unreachable Ansible task (`GET .../tasks/{id}/ansible/errors`). */
export interface AnsibleTaskError { id: number; task_id: number; host: string; task: string; error: string }

/** A task of the global pool (`GET /api/tasks`): queued or running, in any project. */
export interface PoolTask {
  task_id: number; project_id: number; project_name: string; username: string;
  runner_id: number | null; runner_name: string | null; status: string; location: 'queue' | 'running';
  waiting_for?: WaitReason;
}

export interface Task {
  id: number; project_id: number; template_id: number; status: string; message?: string; commit_message?: string;
  version?: string | null; user_id?: number | null; integration_id?: number | null; schedule_id?: number | null; user_name?: string; username?: string;
  tpl_alias?: string; tpl_name?: string; tpl_type?: string; git_branch?: string | null; commit_hash?: string | null; start?: string | null; end?: string | null; created?: string; runner_id?: number | null;
  /** the container image it ran in (null: on the host) */
  executor_image?: string | null;
  /** the build a deploy task ships: its id, and in lists the build itself */
  build_task_id?: number | null;
  build_task?: { version?: string | null } | null;
  /** the variable groups the task ran with, in order */
  environment_ids?: number[];
  /** while it waits: what for */
  waiting_for?: WaitReason;
}
/** What a waiting task waits for (the API's `waiting_for`). */
export type WaitReason =
  | { kind: 'template'; task_id: number; limit?: number } | { kind: 'lock'; lock: string; task_id: number } | { kind: 'project' | 'slots'; running: number; limit: number } | { kind: 'runner'; tag: string | null };
export interface TaskOutputLine { time: string; output: string }
export interface ProjectEvent {
  created: string; username?: string | null; user_name?: string | null; description: string; object_type?: string;
  object_id?: number | null;
}
export interface StatsEntry { date: string; count_by_status: { success?: number; error?: number; stopped?: number } }
export interface LoginInfo {
  oidc_providers: { id: string; name: string; color?: string; icon?: string }[];
  login_with_password: boolean;
  auth_methods?: { totp?: { enabled: boolean; allow_recovery: boolean }; ldap?: { enabled: boolean } };
}

/** Permission bits of seed 000 §6. */
/** The permission bits (server/access/permissions.ts), by the names pages use. */
export const PERMISSION = {
  runTasks: 1, updateProject: 2, manageResources: 4, manageUsers: 8, viewTemplates: 16, editInventories: 32, editEnvironments: 64,
  manageKeys: 128, manageSchedules: 256, approveGates: 512, readAudit: 1024,
} as const;
