import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runCli } from '../../support/cli.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A loopback port nobody listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// the bridge's own behaviour needs no database; with a server it is tested in tests/server/mcp/
describe('signalbox mcp (the stdio bridge)', () => {
  it('explains its usage without a URL or a token, and reads no configuration', async () => {
    const noUrl = await runCli(['mcp'], {});
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('usage: signalbox mcp --url');
    const noToken = await runCli(['mcp', '--url', 'http://127.0.0.1:1'], {});
    expect(noToken.code).toBe(2);
    const badUrl = await runCli(['mcp', '--url', 'not a url'], { SIGNALBOX_MCP_TOKEN: 'x' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--url: not a URL');
  });

  it('answers the assistant with an error when the server cannot be reached, instead of leaving it waiting', async () => {
    const port = await closedPort();
    const transport = new StdioClientTransport({
      command: process.execPath, args: ['src/server/cli/main.ts', 'mcp', '--url', `http://127.0.0.1:${port}`], cwd: ROOT, stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SIGNALBOX_MCP_TOKEN: 'some-token' },
    });
    const client = new Client({ name: 'signalbox-test', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toThrow(/Signalbox server/);
    await client.close();
  }, 60_000);
});
