import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../caller.js';
import { findOperation } from '../ops/registry.js';
import { runOpForTool } from './run-op.js';
import { closeWhenAnswered } from './answer-before-close.js';
import { serialised } from './serialised.js';
import type { Readable, Writable } from 'node:stream';

/** The operations offered as MCP tools, when this build has them. */
export const MCP_TOOLS = ['volunteer_context', 'context_pack', 'remember', 'forget', 'list_facts', 'get_page', 'core_status', 'put_page', 'delete_page', 'list_pages'];

export interface McpOptions {
  home: string;
  /** The bound source and read grant of every client of this server. */
  source: string;
  grant: string[] | undefined;
  version: string;
}

const textResult = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(isError ? { isError: true } : {}),
});

/**
 * The MCP server: every tool runs the named operation as a remote caller (bound source, grant,
 * identity = the client's name from initialize), so owner-only and privacy rules always apply.
 */
export function buildMcpServer(options: McpOptions): McpServer {
  const server = new McpServer({ name: 'brainstream', version: options.version });
  const caller = (): Caller => {
    const name = server.server.getClientVersion()?.name;
    const identity = typeof name === 'string' && name.trim() !== '' ? `mcp:${name.trim().slice(0, 200)}` : 'mcp';
    return { kind: 'remote', source: options.source, grant: options.grant && options.grant.length > 0 ? options.grant : [options.source], identity };
  };
  const oneAtATime = serialised();
  for (const name of MCP_TOOLS) {
    const op = findOperation(name);
    if (!op) continue;
    // One call at a time: without serve each call opens the brain in this process, and a second
    // call arriving meanwhile (clients pipeline) would find it locked by this very process.
    const handler = (args: unknown): Promise<CallToolResult> =>
      oneAtATime(async () => {
        const outcome = await runOpForTool(options.home, caller(), name, args);
        return outcome.ok ? textResult(outcome.result) : textResult(outcome.envelope, true);
      });
    // The operation's zod schema is both the advertised JSON schema and the first validation.
    (server.registerTool as (n: string, c: { description: string; inputSchema: unknown }, h: typeof handler) => void).call(
      server,
      name,
      { description: op.description, inputSchema: op.params },
      handler,
    );
  }
  return server;
}

/**
 * Serves MCP on stdin/stdout until the client disconnects. When stdin ends, the calls already
 * received are answered first; then the server closes and the command exits 0.
 */
export async function serveMcpStdio(options: McpOptions, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  const server = buildMcpServer(options);
  const transport = new StdioServerTransport(input, output);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  const inputEnded = closeWhenAnswered(transport);
  input.once('end', inputEnded);
  input.once('close', inputEnded);
  await closed;
}
