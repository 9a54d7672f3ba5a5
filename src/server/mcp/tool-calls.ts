import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Db } from '../db/database.ts';
import { writeAudit } from '../domain/audit/audit.writer.ts';
import type { TokenBuckets } from '../lib/token-buckets.ts';
import { ApiRefusal, type ApiCaller } from './api-caller.ts';
import type { McpTool } from './tool.ts';

/** Who calls tools in one MCP request, and what their token lets them do. */
export interface McpCaller {
  db: Db;
  api: ApiCaller;
  /** the hash of the bearer token: the key its write calls are throttled by */
  tokenHash: string;
  writesAllowed: boolean;
  writeThrottle: TokenBuckets;
}

/** A refusal of the MCP server itself (read-only token, throttle), told to the assistant as it is. */
class ToolRefusal extends Error {}

/**
 * Runs one tool call: refuses a write with a read-only or throttled token, calls the tool, and
 * records the call in the audit trail (actor and token prefix from the request, the tool, the
 * outcome). A failure comes back as a tool error the assistant can read, never as a crash.
 */
export async function callTool(caller: McpCaller, tool: McpTool, args: Record<string, unknown>): Promise<CallToolResult> {
  let outcome = 'ok';
  let reachedProject = true;
  try {
    if (tool.writes) admitWrite(caller);
    const value = await tool.run(caller.api, args);
    return { content: [{ type: 'text', text: JSON.stringify(value ?? null, null, 2) }] };
  } catch (err) {
    if (!(err instanceof ApiRefusal) && !(err instanceof ToolRefusal)) {
      // a fault of ours, not an answer: the assistant learns only that it failed
      console.error(`signalbox: MCP tool ${tool.name} failed:`, err);
      outcome = 'failed';
      return { content: [{ type: 'text', text: 'the tool failed on the server; see its log' }], isError: true };
    }
    reachedProject = !(err instanceof ApiRefusal && err.status === 404);
    outcome = `refused: ${err.message}`;
    return { content: [{ type: 'text', text: err.message }], isError: true };
  } finally {
    const projectId = typeof args.project_id === 'number' && reachedProject ? args.project_id : null;
    await writeAudit(caller.db, { action: 'mcp_tool_call', objectType: 'mcp_tool', objectName: tool.name, projectId, description: outcome.slice(0, 500) });
  }
}

function admitWrite(caller: McpCaller): void {
  if (!caller.writesAllowed) {
    throw new ToolRefusal('this token is read-only for assistants: create a token with allow_write_operations to start, stop or approve');
  }
  const wait = caller.writeThrottle.take(caller.tokenHash);
  if (wait > 0) throw new ToolRefusal(`too many write calls with this token; try again in ${wait} s`);
}
