import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { VERSION } from '../version.ts';
import { READ_TOOLS } from './read-tools.ts';
import { WRITE_TOOLS } from './write-tools.ts';
import { registerResources } from './resources.ts';
import { callTool, type McpCaller } from './tool-calls.ts';

/** Every tool the MCP server offers. */
export const MCP_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS];

/** An MCP server for one caller: the tools and resources, each acting through the API as that caller. */
export function buildMcpServer(caller: McpCaller): McpServer {
  const server = new McpServer({ name: 'signalbox', version: VERSION }, {
    instructions: 'Signalbox runs automation (Ansible, Terraform, scripts) from templates in projects. Find a project (list_projects), '
      + 'a template (list_templates, get_template), start it (start_task), follow it (get_task, read_task_output, get_task_summary).',
  });
  for (const tool of MCP_TOOLS) {
    server.registerTool(tool.name, {
      title: tool.title, description: tool.description, inputSchema: tool.input,
      annotations: { readOnlyHint: !tool.writes, destructiveHint: false, openWorldHint: false },
    }, (args: Record<string, unknown>) => callTool(caller, tool, args));
  }
  registerResources(server, caller.api);
  return server;
}
