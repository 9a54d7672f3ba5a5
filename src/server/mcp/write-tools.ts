import { z } from 'zod';
import { stopInputSchema, taskInputSchema } from '../domain/tasks/task.ts';
import { approvalDecisionSchema } from '../domain/workflows/workflow.ts';
import { defineTool, projectIdField, taskIdField, type McpTool } from './tool.ts';

/** What a start may send: the API's task body without the fields a task object only reports. */
const startInputSchema = taskInputSchema.omit({
  id: true, project_id: true, status: true, user_id: true, integration_id: true, schedule_id: true, created: true, start: true, end: true,
  commit_message: true, version: true, tpl_playbook: true, tpl_alias: true, tpl_type: true, tpl_app: true, user_name: true, username: true, build_task: true,
}).extend({ project_id: projectIdField });

/** The tools that change something: refused unless the token was created with `allow_write_operations`. */
export const WRITE_TOOLS: McpTool[] = [
  defineTool({
    name: 'start_task', title: 'Start a task', writes: true,
    description: 'Starts a template (template_id or template_name) as the launch dialog does, with the same rules and errors. '
      + 'Survey answers go in `environment` as {"variable": "value"}, survey secrets in `secret`; other choices only where get_template\'s `start_may_override` allows them.',
    input: startInputSchema,
    run: async (api, { project_id, ...input }) => (await api.post(`/project/${project_id}/tasks`, input)).body,
  }),
  defineTool({
    name: 'stop_task', title: 'Stop a task', writes: true,
    description: 'Stops a running or waiting task; `force` kills it without waiting for a clean stop.',
    input: stopInputSchema.extend({ project_id: projectIdField, task_id: taskIdField }),
    run: async (api, { project_id, task_id, ...input }) => {
      await api.post(`/project/${project_id}/tasks/${task_id}/stop`, input);
      return { stopping: task_id };
    },
  }),
  defineTool({
    name: 'decide_approval', title: 'Approve or reject a workflow gate', writes: true,
    description: 'Decides a pending workflow gate (see list_pending_approvals) with a comment; four-eyes gates refuse the user who started the run.',
    input: approvalDecisionSchema.extend({
      project_id: projectIdField, workflow_id: z.number().int().min(1), run_id: z.number().int().min(1), node_id: z.number().int().min(1).describe('workflow_node_id of the approval'),
    }),
    run: async (api, { project_id, workflow_id, run_id, node_id, ...decision }) =>
      (await api.post(`/project/${project_id}/workflows/${workflow_id}/runs/${run_id}/approvals/${node_id}`, decision)).body,
  }),
  defineTool({
    name: 'decide_task', title: 'Confirm or reject a task', writes: true,
    description: 'Confirms or rejects a task waiting for confirmation (a plan waiting to be applied).',
    input: z.object({ project_id: projectIdField, task_id: taskIdField, decision: z.enum(['confirm', 'reject']) }),
    run: async (api, { project_id, task_id, decision }) => {
      await api.post(`/project/${project_id}/tasks/${task_id}/${decision}`);
      return { task_id, decision };
    },
  }),
];
