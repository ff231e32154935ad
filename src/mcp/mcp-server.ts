import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Caller } from '../caller.js';
import { checkParams, errorEnvelope, findOperation, type AnyOperation, type ErrorEnvelope } from '../ops/registry.js';
import { runOpForTool } from './run-op.js';
import type { OpOutcome } from './op-route.js';
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
  /** Runs one call; default: through serve, else on the brain at `home` opened for the call. */
  runOp?: (caller: Caller, op: string, params: unknown) => Promise<OpOutcome>;
}

/** What a client reads once: what brainstream is, and which tool to call when. */
const MCP_INSTRUCTIONS = [
  'brainstream is a personal knowledge brain: markdown pages about people, companies and topics, plus remembered facts and a small always-loaded core memory.',
  'At session start call context_pack (core memory; add entity names for their cards). During the conversation call volunteer_context with the recent turns to learn which pages are worth reading, then get_page to read one (pass session_id to both).',
  'Call remember to save a fact that must survive (always with provenance; items for several at once, request_id for safe retries), forget to withdraw one (ids from list_facts).',
  'put_page and delete_page change pages of your source; list_pages, list_facts and core_status only read.',
  'You see only the sources you were granted; private pages and private facts are invisible to you and never appear in any result.',
].join(' ');

const okResult = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

/** A refusal: one line a person can read, and the same envelope as structured content. */
const errorResult = (envelope: ErrorEnvelope): CallToolResult => ({
  content: [{ type: 'text', text: `brainstream: ${envelope.error}: ${envelope.message.split('\n')[0]}` }],
  structuredContent: envelope,
  isError: true,
});

/** The error envelope's fields, which every output schema admits: a refusal carries them instead of the result. */
const ErrorFields = {
  error: z.string().optional().describe('Only on a refusal (isError): the error code, e.g. invalid_params.'),
  message: z.string().optional().describe('Only on a refusal (isError): what was wrong and what is expected.'),
};

/**
 * The advertised output schema: the result's fields, all marked optional because a refusal
 * carries `{error, message}` as its structured content instead (clients check structured
 * content against this schema even on errors).
 */
const toolOutputSchema = (op: AnyOperation): z.ZodObject => op.result.partial().extend(ErrorFields);

const toolAnnotations = (op: AnyOperation): ToolAnnotations => ({
  title: op.title,
  readOnlyHint: op.effect.readOnly,
  destructiveHint: op.effect.destructive,
  idempotentHint: op.effect.idempotent,
  openWorldHint: false,
});

/**
 * The MCP server: every tool runs the named operation as a remote caller (bound source, grant,
 * identity = the client's name from initialize), so owner-only and privacy rules always apply.
 */
export function buildMcpServer(options: McpOptions): McpServer {
  const server = new McpServer({ name: 'brainstream', version: options.version }, { instructions: MCP_INSTRUCTIONS });
  // Params are checked in the tool handler (checkParams), so a schema violation is a tool error
  // with the same `brainstream: invalid_params: <field>: …` line and envelope as any refusal.
  (server as unknown as { validateToolInput: (tool: unknown, args: unknown) => Promise<unknown> }).validateToolInput = async (_tool, args) => args ?? {};
  const caller = (): Caller => {
    const name = server.server.getClientVersion()?.name;
    const identity = typeof name === 'string' && name.trim() !== '' ? `mcp:${name.trim().slice(0, 200)}` : 'mcp';
    return { kind: 'remote', source: options.source, grant: options.grant && options.grant.length > 0 ? options.grant : [options.source], identity };
  };
  const runOp = options.runOp ?? ((c: Caller, op: string, params: unknown) => runOpForTool(options.home, c, op, params));
  const oneAtATime = serialised();
  for (const name of MCP_TOOLS) {
    const op = findOperation(name);
    if (!op) continue;
    // One call at a time: without serve each call opens the brain in this process, and a second
    // call arriving meanwhile (clients pipeline) would find it locked by this very process.
    const handler = (args: unknown): Promise<CallToolResult> =>
      oneAtATime(async () => {
        // Refused here, before the brain is opened or serve is asked.
        try {
          checkParams(op, args);
        } catch (err) {
          return errorResult(errorEnvelope(err));
        }
        const outcome = await runOp(caller(), name, args);
        return outcome.ok ? okResult(outcome.result) : errorResult(outcome.envelope);
      });
    (server.registerTool as (n: string, c: object, h: typeof handler) => void).call(
      server,
      name,
      { title: op.title, description: op.description, inputSchema: op.params, outputSchema: toolOutputSchema(op), annotations: toolAnnotations(op) },
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
