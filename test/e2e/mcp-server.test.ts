import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, runCliAsync, tempDir } from '../support/cli.js';
import { importPages, startServe, type ServeChild } from './hook-serve-support.js';

const tmp = tempDir('bs-mcp-e2e-');
const home = join(tmp.path, 'brain');

beforeAll(() => {
  importPages(home, join(tmp.path, 'pages'), {
    'people/alice-example': '---\ntitle: Alice Example\ntype: person\n---\nAlice is an early founder.\n',
    'people/dana-hidden': '---\ntitle: Dana Hidden\ntype: person\nvisibility: private\n---\nDana is a private contact.\n',
  });
});

afterAll(() => tmp.cleanup());

async function connectClient(name: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--home', home, 'mcp', '--source', 'default'],
    env: { ...(process.env as Record<string, string>), BRAINSTREAM_SOURCE: '' },
    stderr: 'ignore',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

interface ToolText {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}
/** A result (JSON text and structured content) or a refusal (one line, the envelope as structured content). */
const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: Record<string, unknown> }> => {
  const r = (await client.callTool({ name, arguments: args })) as ToolText;
  const value = r.structuredContent!;
  if (r.isError) expect(r.content).toEqual([{ type: 'text', text: `brainstream: ${String(value.error)}: ${String(value.message)}` }]);
  else expect(JSON.parse(r.content[0].text)).toEqual(value);
  return { isError: r.isError === true, value };
};

const stats = (): { total_used: number; by_arm: { channel: string; used: number }[] } =>
  JSON.parse(runCli(['--home', home, 'volunteer-context', '--stats', '--json', '--attribution', 'session']).stdout);

describe.each([
  ['opening the brain per call', false],
  ['through a running serve', true],
])('MCP server over stdio, %s', (_mode, withServe) => {
  let serve: ServeChild | undefined;
  let client: Client;

  beforeAll(async () => {
    if (withServe) serve = await startServe(home);
    client = await connectClient(`test-client-${withServe ? 'serve' : 'direct'}`);
  });

  afterAll(async () => {
    await client?.close();
    await serve?.stop();
  });

  it('lists the tools backed by the operations', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['volunteer_context', 'context_pack', 'remember', 'forget', 'get_page', 'core_status', 'put_page', 'delete_page']));
    const tool = (await client.listTools()).tools.find((t) => t.name === 'volunteer_context')!;
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['window', 'prior_context', 'session_id', 'stats']));
  });

  it('volunteer_context never returns a private page to a remote caller', async () => {
    const session = `mcp-${withServe ? 'serve' : 'direct'}`;
    const r = await call(client, 'volunteer_context', { window: 'user: ask Alice Example and Dana Hidden', session_id: session, turn: 1 });
    expect(r.isError).toBe(false);
    expect((r.value.pages as { slug: string }[]).map((p) => p.slug)).toEqual(['people/alice-example']);
    expect(r.value).toMatchObject({ count: 1, window_turns: 1 });
    expect(JSON.stringify(r.value)).not.toContain('dana');
  });

  it('get_page records a retrieval attributed to the session', async () => {
    const session = `mcp-${withServe ? 'serve' : 'direct'}`;
    const before = stats().total_used;
    const r = await call(client, 'get_page', { slug: 'people/alice-example', session_id: session });
    expect(r.value).toMatchObject({ source_id: 'default', slug: 'people/alice-example', title: 'Alice Example', compiled_truth: 'Alice is an early founder.' });
    expect(stats().total_used).toBe(before + 1);
  });

  it('a private page reads as missing; errors come back as envelopes', async () => {
    expect(await call(client, 'get_page', { slug: 'people/dana-hidden' })).toEqual({
      isError: true,
      value: { error: 'page_not_found', message: 'no page default:people/dana-hidden' },
    });
    const pack = await call(client, 'context_pack', { entities: ['Alice Example', 'Dana Hidden', 'people/dana-hidden'] });
    expect(pack.value).toMatchObject({ unresolved: ['Dana Hidden', 'people/dana-hidden'], core: '', protocol_version: 1 });
    expect(pack.value.text).toContain('`people/alice-example`');
    const list = await call(client, 'list_pages', {});
    expect((list.value.pages as { slug: string }[]).map((p) => p.slug)).toEqual(['people/alice-example']);
    const missing = await call(client, 'volunteer_context', {});
    expect(missing.value).toMatchObject({ error: 'invalid_params', message: 'window is required unless stats: true' });
  });

  it('core_status answers with the budget', async () => {
    const r = await call(client, 'core_status', {});
    expect(r.value).toMatchObject({ enabled: false, max_chars: 4000, max_pages: 50, pending_notices: [] });
  });

  it('remember and forget facts as a remote caller', async () => {
    const saved = await call(client, 'remember', { items: [{ fact: `Alice prefers email (${withServe})`, provenance: 'said in the weekly sync' }, { fact: 'no provenance' }] });
    expect(saved.value).toMatchObject({ error: 'provenance_required', message: 'items[1].provenance is required' });
    const one = await call(client, 'remember', { fact: `Alice prefers email (${withServe})`, provenance: 'said in the weekly sync' });
    expect(one.value).toMatchObject({ status: 'inserted', protocol_version: 1 });
    const gone = await call(client, 'forget', { id: one.value.id as string, reason: 'test' });
    expect(gone.isError).toBe(false);
  });

  it('remote writes land in the bound source', async () => {
    const slug = `notes/from-mcp-${withServe ? 'serve' : 'direct'}`;
    expect((await call(client, 'put_page', { slug, markdown: '# From MCP\n\nwritten remotely\n' })).value).toEqual({ source_id: 'default', slug, status: 'created' });
    expect((await call(client, 'delete_page', { slug })).value).toEqual({ source_id: 'default', slug, status: 'deleted' });
  });
});

describe('MCP server over raw stdio without serve', () => {
  const rpc = (id: number | null, method: string, params: unknown): string =>
    `${JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params })}\n`;

  it('answers pipelined tool calls one after another, then exits 0 when stdin closes', async () => {
    const input =
      rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } }) +
      rpc(null, 'notifications/initialized', {}) +
      rpc(2, 'tools/call', { name: 'get_page', arguments: { slug: 'people/alice-example' } }) +
      rpc(3, 'tools/call', { name: 'list_pages', arguments: {} });
    const r = await runCliAsync(['--home', home, 'mcp', '--source', 'default'], { input, env: { BRAINSTREAM_AUTOSTART: '0' } });
    expect(r.code).toBe(0);
    const answers = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: ToolText });
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    for (const a of answers.slice(1)) expect(a.result.isError, a.result.content?.[0]?.text).toBeFalsy();
    expect(JSON.parse(answers[1]!.result.content[0].text)).toMatchObject({ slug: 'people/alice-example' });
  });

  it('exits 0 on an empty stdin', async () => {
    const r = await runCliAsync(['--home', home, 'mcp'], { input: '' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });
});
