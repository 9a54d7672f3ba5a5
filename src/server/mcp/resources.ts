import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiCaller } from './api-caller.ts';
import { describeTemplate, OUTPUT_LINES_MAX, readOutputLines } from './read-tools.ts';

/** Most templates the resource list names (an assistant finds the rest with list_templates). */
const LISTED_TEMPLATES = 200;

/** A whole number from a URI variable (the SDK may hand a list for repeated ones). */
function numberOf(value: string | string[] | undefined): number {
  const text = Array.isArray(value) ? value[0] : value;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a whole number: ${text}`);
  return n;
}

/**
 * Task logs (`signalbox://projects/1/tasks/7/lines/1/200`: lines 1 to 200, at most
 * OUTPUT_LINES_MAX at a time) and templates (`signalbox://projects/1/templates/3`), read through
 * the API with the caller's rights like the tools.
 */
export function registerResources(server: McpServer, api: ApiCaller): void {
  server.registerResource('task-log', new ResourceTemplate('signalbox://projects/{project_id}/tasks/{task_id}/lines/{first}/{last}', { list: undefined }), {
    title: 'Task log lines', mimeType: 'text/plain',
    description: `Lines first to last (counted from 1) of a task's log, at most ${OUTPUT_LINES_MAX} at a time.`,
  }, async (uri, vars) => {
    const first = Math.max(1, numberOf(vars.first));
    const last = Math.max(first, numberOf(vars.last));
    const page = await readOutputLines(api, numberOf(vars.project_id), numberOf(vars.task_id), { offset: first - 1, limit: Math.min(last - first + 1, OUTPUT_LINES_MAX) });
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: page.lines.map((l) => l.output).join('\n') }] };
  });

  server.registerResource('template', new ResourceTemplate('signalbox://projects/{project_id}/templates/{template_id}', { list: () => listTemplates(api) }), {
    title: 'Template', mimeType: 'application/json',
    description: 'A template with its survey and what a start may override.',
  }, async (uri, vars) => {
    const template = await describeTemplate(api, numberOf(vars.project_id), numberOf(vars.template_id));
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(template, null, 2) }] };
  });
}

async function listTemplates(api: ApiCaller) {
  const projects = (await api.get<{ id: number; name: string }[]>('/projects')).body;
  const resources = [];
  for (const project of projects) {
    if (resources.length >= LISTED_TEMPLATES) break;
    const templates = (await api.get<{ id: number; name: string }[]>(`/project/${project.id}/templates`)).body;
    resources.push(...templates.map((t) => ({ uri: `signalbox://projects/${project.id}/templates/${t.id}`, name: `${project.name} / ${t.name}`, mimeType: 'application/json' })));
  }
  return { resources: resources.slice(0, LISTED_TEMPLATES) };
}
