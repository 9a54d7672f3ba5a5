import { z } from 'zod';
import type { ApiCaller } from './api-caller.ts';

/** One MCP tool: its input (a zod object the API's own schemas build) and the API calls it makes. */
export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  /** starts, stops or decides something: only a token created with `allow_write_operations` may call it */
  writes: boolean;
  run(api: ApiCaller, args: z.output<Input>): Promise<unknown>;
}

/** Keeps a tool's argument types while it is written, then lets it join the list of all tools. */
export function defineTool<Input extends z.ZodObject>(tool: McpTool<Input>): McpTool {
  return tool as unknown as McpTool;
}

export const projectIdField = z.number().int().min(1).describe('the project id (see list_projects)');
export const taskIdField = z.number().int().min(1).describe('the task id');
