// The three ways a caller reaches the page operations, behind one interface, so the matrix runs
// the same cases through each: the CLI program in this process, a real MCP client, and the CLI
// forwarded over serve's socket.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { PassThrough } from 'node:stream';
import { runWithIo, type CliIo } from '../../../src/command-io.js';
import { runProgram } from '../../../src/cli/program.js';
import { buildMcpServer } from '../../../src/mcp/mcp-server.js';
import { renderPageMarkdown } from '../../../src/pages/render-markdown.js';
import type { CliResult } from '../../support/cli.js';
import type { CliSession } from '../../support/cli-session.js';
import { BOUND, CALLER_FLAGS, MCP_GRANT, type CallerName } from './permission-matrix-pages.js';

/** One answer: `raw` is everything the caller was told (compared whole), the rest is read from it. */
export interface Answer {
  raw: unknown;
  ok: boolean;
  /** All of the output as text (for looking for words). */
  text: string;
  /** The JSON result, when the surface answered one. */
  json: Record<string, unknown> | null;
  /** A page read: the page as markdown, to edit and write back. */
  markdown?: string;
}

export interface Surface {
  name: string;
  callers: readonly CallerName[];
  getPage(c: CallerName, source: string, slug: string): Promise<Answer>;
  listPages(c: CallerName): Promise<Answer>;
  putPage(c: CallerName, slug: string, markdown: string): Promise<Answer>;
  deletePage(c: CallerName, source: string, slug: string): Promise<Answer>;
  volunteer(c: CallerName, window: string, session: string): Promise<Answer>;
  contextPack(c: CallerName, entities: string[]): Promise<Answer>;
  close(): Promise<void>;
}

/** Runs one CLI command line in this process, on the brain serve holds open (no socket). */
export async function runInProcess(home: string, args: readonly string[], input = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end(input);
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stdin, stdinIsTTY: false, stderrIsTTY: false, forwarded: false };
  const code = await runWithIo(io, () => runProgram(['--home', home, ...args]));
  return { code, stdout, stderr };
}

const parseJson = (text: string): Record<string, unknown> | null => {
  try {
    const value = JSON.parse(text.trim().split('\n').pop() ?? '') as unknown;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const cliAnswer = (r: CliResult, markdown = false): Answer => ({
  raw: r,
  ok: r.code === 0,
  text: r.stdout + r.stderr,
  json: parseJson(r.stdout),
  ...(markdown && r.code === 0 ? { markdown: r.stdout } : {}),
});

/**
 * The CLI as a surface: page commands in the bound source, `call` for a page of another source
 * (the page commands address only the caller's own source), `volunteer-context` and
 * `call context_pack` for the reads that volunteer.
 */
function cliSurface(name: string, run: (args: readonly string[], input?: string) => Promise<CliResult>): Surface {
  const as = (c: CallerName, args: readonly string[], input?: string) => run([...CALLER_FLAGS[c], ...args], input);
  const op = (c: CallerName, name: string, params: unknown) => as(c, ['call', name, '--params', JSON.stringify(params)]);
  return {
    name,
    callers: ['owner', 'granted', 'ungranted', 'elsewhere'],
    getPage: async (c, source, slug) =>
      source === BOUND ? cliAnswer(await as(c, ['page', 'get', slug]), true) : cliAnswer(await op(c, 'get_page', { slug, source_id: source })),
    listPages: async (c) => cliAnswer(await as(c, ['page', 'list', '--json'])),
    putPage: async (c, slug, markdown) => cliAnswer(await as(c, ['page', 'put', slug, '--json'], markdown)),
    deletePage: async (c, source, slug) =>
      source === BOUND ? cliAnswer(await as(c, ['page', 'delete', slug, '--json'])) : cliAnswer(await op(c, 'delete_page', { slug, source_id: source })),
    volunteer: async (c, window, session) => cliAnswer(await as(c, ['volunteer-context', '--json', '--session-id', session], window)),
    contextPack: async (c, entities) => cliAnswer(await op(c, 'context_pack', { entities })),
    close: async () => {},
  };
}

export const inProcessCliSurface = (home: string): Surface => cliSurface('the CLI in this process', (args, input) => runInProcess(home, args, input));

export const serveSocketSurface = (cli: CliSession): Surface =>
  cliSurface('the CLI through the serve socket', (args, input) => cli.run(args, { input: input ?? '' }));

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/**
 * A real MCP client per remote caller, each connected over an in-memory transport to an MCP
 * server of the home, which runs every tool call in the running serve (as `brainstream mcp` does).
 */
export async function mcpSurface(home: string): Promise<Surface> {
  const clients = new Map<CallerName, Client>();
  for (const c of ['granted', 'ungranted', 'elsewhere'] as const) {
    const server = buildMcpServer({ home, source: BOUND, grant: MCP_GRANT[c], version: '0.0.0-test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: `permission-matrix-${c}`, version: '1.0.0' });
    await client.connect(clientSide);
    clients.set(c, client);
  }
  const call = async (c: CallerName, tool: string, args: Record<string, unknown>): Promise<Answer> => {
    const r = (await clients.get(c)!.callTool({ name: tool, arguments: args })) as ToolResult;
    const raw = { isError: r.isError === true, content: r.content, structuredContent: r.structuredContent };
    return { raw, ok: r.isError !== true, text: r.content.map((p) => p.text).join('\n'), json: r.structuredContent ?? null };
  };
  return {
    name: 'a real MCP client',
    callers: ['granted', 'ungranted', 'elsewhere'],
    getPage: async (c, source, slug) => {
      const a = await call(c, 'get_page', { slug, source_id: source });
      const page = a.json as Parameters<typeof renderPageMarkdown>[0] | null;
      return a.ok && page ? { ...a, markdown: renderPageMarkdown(page) } : a;
    },
    listPages: (c) => call(c, 'list_pages', {}),
    putPage: (c, slug, markdown) => call(c, 'put_page', { slug, markdown }),
    deletePage: (c, source, slug) => call(c, 'delete_page', { slug, source_id: source }),
    volunteer: (c, window, session) => call(c, 'volunteer_context', { window, session_id: session }),
    contextPack: (c, entities) => call(c, 'context_pack', { entities }),
    close: async () => {
      for (const client of clients.values()) await client.close();
    },
  };
}
