import { z } from 'zod';
import { taskPageQuerySchema } from '../domain/tasks/task-cursor.ts';
import { overridesAllowed } from '../domain/tasks/launch/rules/template-overrides.ts';
import { defineTool, projectIdField, taskIdField, type McpTool } from './tool.ts';
import type { ApiCaller } from './api-caller.ts';

/** Most lines one output read returns: an assistant pages through a long log, never takes it whole. */
export const OUTPUT_LINES_MAX = 500;

/** Tasks one list_tasks page holds when the assistant names no limit. */
const TASKS_PAGE = 50;

interface TemplateJson {
  id: number;
  name: string;
  description?: string | null;
  app: string;
  playbook: string;
  view_id?: number | null;
  survey_vars: unknown[];
  allow_override_args_in_task: boolean;
  allow_override_branch_in_task: boolean;
  task_params: Record<string, unknown>;
}

/** A task's log lines by range (`offset`, `limit`) or the last `tail` lines, with the total. */
export async function readOutputLines(api: ApiCaller, projectId: number, taskId: number, range: { offset?: number; limit?: number; tail?: number }) {
  const path = `/project/${projectId}/tasks/${taskId}/output`;
  const limit = Math.min(range.tail ?? range.limit ?? 100, OUTPUT_LINES_MAX);
  let offset = range.offset ?? 0;
  if (range.tail !== undefined) {
    const probe = await api.get<unknown[]>(path, { offset: 0, limit: 1 });
    offset = Math.max(0, Number(probe.headers.get('x-total-count') ?? 0) - limit);
  }
  const page = await api.get<{ output: string; time: string }[]>(path, { offset, limit });
  const total = Number(page.headers.get('x-total-count') ?? 0);
  return { offset, total_lines: total, lines: page.body.map((row, index) => ({ line: offset + index + 1, time: row.time, output: row.output })) };
}

/** A template as a start needs it: its survey and what a start may choose besides survey answers. */
export async function describeTemplate(api: ApiCaller, projectId: number, templateId: number) {
  const { body } = await api.get<TemplateJson>(`/project/${projectId}/templates/${templateId}`);
  return { ...body, start_may_override: overridesAllowed(body, body.task_params ?? {}) };
}

const outputRange = {
  offset: z.number().int().min(0).optional().describe('lines to skip from the start (0: the first line)'),
  limit: z.number().int().min(1).max(OUTPUT_LINES_MAX).optional().describe(`how many lines (default 100, at most ${OUTPUT_LINES_MAX})`),
  tail: z.number().int().min(1).max(OUTPUT_LINES_MAX).optional().describe('the last N lines instead of a range'),
};

const auditQuerySchema = z.object({
  project_id: projectIdField.optional().describe('only this project (the project audit trail, for its owners)'),
  user: z.string().max(255).optional().describe('actor id or name'),
  action: z.string().max(64).optional(),
  object_type: z.string().max(64).optional(),
  q: z.string().max(200).optional().describe('words to find'),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  before: z.number().int().min(1).optional().describe('the cursor: `next` of the previous page'),
  limit: z.number().int().min(1).max(500).optional(),
});

/** The tools that only read: any token may call them, with its user's visibility. */
export const READ_TOOLS: McpTool[] = [
  defineTool({
    name: 'list_projects', title: 'List projects', writes: false,
    description: "The projects this token's user is a member of (all of them for an administrator).",
    input: z.object({}),
    run: async (api) => (await api.get('/projects')).body,
  }),
  defineTool({
    name: 'list_templates', title: 'Find templates', writes: false,
    description: 'The templates of a project; `search` keeps those whose name or description contains it (case-insensitive).',
    input: z.object({ project_id: projectIdField, search: z.string().max(255).optional() }),
    run: async (api, { project_id, search }) => {
      const { body } = await api.get<TemplateJson[]>(`/project/${project_id}/templates`);
      const needle = search?.trim().toLowerCase() ?? '';
      return body.filter((t) => !needle || `${t.name}\n${t.description ?? ''}`.toLowerCase().includes(needle))
        .map((t) => ({ id: t.id, name: t.name, description: t.description ?? '', app: t.app, playbook: t.playbook, view_id: t.view_id ?? null, survey_fields: t.survey_vars.length }));
    },
  }),
  defineTool({
    name: 'get_template', title: 'Read a template', writes: false,
    description: 'A template with its survey (the values a start asks for) and `start_may_override`: what a start may choose besides survey answers.',
    input: z.object({ project_id: projectIdField, template_id: z.number().int().min(1) }),
    run: (api, { project_id, template_id }) => describeTemplate(api, project_id, template_id),
  }),
  defineTool({
    name: 'list_tasks', title: 'List tasks', writes: false,
    description: `Tasks of a project, newest first (${TASKS_PAGE} unless \`limit\` says), filtered and paged by cursor: pass the last id as \`before_id\` for older ones.`,
    input: taskPageQuerySchema.extend({ project_id: projectIdField }),
    run: async (api, { project_id, ...query }) => {
      const page = await api.get(`/project/${project_id}/tasks`, { before_id: 0, limit: TASKS_PAGE, ...query });
      return { tasks: page.body, has_older: page.headers.get('x-has-next') === 'true', has_newer: page.headers.get('x-has-prev') === 'true' };
    },
  }),
  defineTool({
    name: 'list_schedules', title: 'List schedules', writes: false,
    description: 'The schedules of a project: cron, template, whether active.',
    input: z.object({ project_id: projectIdField }),
    run: async (api, { project_id }) => (await api.get(`/project/${project_id}/schedules`)).body,
  }),
  defineTool({
    name: 'list_inventories', title: 'List inventories', writes: false,
    description: 'The inventories of a project.',
    input: z.object({ project_id: projectIdField }),
    run: async (api, { project_id }) => (await api.get(`/project/${project_id}/inventory`)).body,
  }),
  defineTool({
    name: 'get_task', title: 'Task status', writes: false,
    description: 'One task: status, template, who started it, start and end.',
    input: z.object({ project_id: projectIdField, task_id: taskIdField }),
    run: async (api, { project_id, task_id }) => (await api.get(`/project/${project_id}/tasks/${task_id}`)).body,
  }),
  defineTool({
    name: 'get_task_summary', title: 'Task summary', writes: false,
    description: "A task's stages, Ansible hosts (ok, changed, failed, unreachable) and failed Ansible tasks with their messages.",
    input: z.object({ project_id: projectIdField, task_id: taskIdField }),
    run: async (api, { project_id, task_id }) => {
      const base = `/project/${project_id}/tasks/${task_id}`;
      const [task, stages, hosts, failed] = await Promise.all(['', '/stages', '/ansible/hosts', '/ansible/errors'].map(async (part) => (await api.get(base + part)).body));
      return { task, stages, hosts, failed_tasks: failed };
    },
  }),
  defineTool({
    name: 'read_task_output', title: 'Read task output', writes: false,
    description: `Lines of a task's log by range (offset, limit) or its last lines (tail); at most ${OUTPUT_LINES_MAX} lines a call, with the total.`,
    input: z.object({ project_id: projectIdField, task_id: taskIdField, ...outputRange }),
    run: (api, { project_id, task_id, ...range }) => readOutputLines(api, project_id, task_id, range),
  }),
  defineTool({
    name: 'search_task_output', title: 'Search task output', writes: false,
    description: "Lines of a task's whole log containing `q` (case-insensitive), with their line numbers.",
    input: z.object({ project_id: projectIdField, task_id: taskIdField, q: z.string().min(1).max(200), limit: z.number().int().min(1).max(1000).optional() }),
    run: async (api, { project_id, task_id, q, limit }) => (await api.get(`/project/${project_id}/tasks/${task_id}/output/search`, { q, limit })).body,
  }),
  defineTool({
    name: 'list_pending_approvals', title: 'Pending approvals', writes: false,
    description: 'What waits for a decision in a project: workflow gates (decide with decide_approval) and tasks waiting for confirmation (decide with decide_task).',
    input: z.object({ project_id: projectIdField }),
    run: async (api, { project_id }) => {
      const [gates, tasks] = await Promise.all([
        api.get(`/project/${project_id}/approvals`),
        api.get(`/project/${project_id}/tasks`, { status: 'waiting_confirmation', before_id: 0 }),
      ]);
      return { workflow_gates: gates.body, tasks_waiting_confirmation: tasks.body };
    },
  }),
  defineTool({
    name: 'read_audit_trail', title: 'Audit trail', writes: false,
    description: 'Who did what, newest first: the whole trail for administrators, a project\'s for its owners. Page with `before` = the previous `next`.',
    input: auditQuerySchema,
    run: async (api, { project_id, ...query }) => (await api.get(project_id ? `/project/${project_id}/audit` : '/audit', query)).body,
  }),
];
