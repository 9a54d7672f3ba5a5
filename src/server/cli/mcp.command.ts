import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const USAGE = 'usage: signalbox mcp --url <server url> [--token <API token>]   (or the token in SIGNALBOX_MCP_TOKEN)';

/** `--name value` or `--name=value` from the arguments. */
function option(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i]!.startsWith(`--${name}=`)) return args[i]!.slice(name.length + 3);
  }
  return undefined;
}

/** The MCP endpoint of a server named by its base URL (or by the endpoint itself). */
function endpointOf(url: string): URL {
  const base = new URL(url);
  if (!base.pathname.replace(/\/+$/, '').endsWith('/api/mcp')) base.pathname = `${base.pathname.replace(/\/+$/, '')}/api/mcp`;
  return base;
}

/**
 * `signalbox mcp --url https://signalbox.example --token …`: the stdio bridge for desktop
 * assistants that start MCP servers as processes. Each JSON-RPC message read on stdin is posted
 * to the server's `/api/mcp` with the token, and each answer written to stdout; a request the
 * server cannot be reached for is answered with an error, so the assistant is never left waiting.
 * The token is better given in SIGNALBOX_MCP_TOKEN: other users can read a command line.
 */
export async function runMcpCommand(args: string[]): Promise<number> {
  const url = option(args, 'url');
  const token = option(args, 'token') ?? process.env.SIGNALBOX_MCP_TOKEN;
  if (!url || !token) {
    console.error(USAGE);
    return 2;
  }
  let endpoint: URL;
  try {
    endpoint = endpointOf(url);
  } catch {
    console.error(`--url: not a URL; ${USAGE}`);
    return 2;
  }
  const remote = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => { local.onclose = resolve; });
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (err) => console.error(`signalbox mcp: ${err.message}`);
  local.onmessage = (message) => void forward(remote, local, message);
  await remote.start();
  await local.start();
  process.stdin.once('end', () => void local.close());
  await closed;
  await remote.close();
  return 0;
}

async function forward(remote: StreamableHTTPClientTransport, local: StdioServerTransport, message: JSONRPCMessage): Promise<void> {
  try {
    await remote.send(message);
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    console.error(`signalbox mcp: ${text}`);
    if (isJSONRPCRequest(message)) await local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `Signalbox server: ${text}` } });
  }
}
