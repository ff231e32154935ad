import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { ownerCaller } from '../../../src/caller.js';
import { buildMcpServer, MCP_TOOLS } from '../../../src/mcp/mcp-server.js';
import { putPage } from '../../../src/ops/page-ops.js';
import { localOpContext } from '../../../src/ops/operations/local-op-context.js';
import { errorEnvelope, findOperation, runOperation } from '../../../src/ops/registry.js';
import { openMemoryDb } from '../../support/databases.js';

// The MCP server in this process, over an in-memory transport, with the real SDK client; each
// call runs its operation on an in-memory brain (the spawned `brainstream mcp` is covered by
// the e2e tests).
let brain: Brain;
let client: Client;

const READ_ONLY = ['volunteer_context', 'context_pack', 'list_facts', 'get_page', 'core_status', 'list_pages'];
const WRITES = { remember: false, forget: true, put_page: true, delete_page: true } as Record<string, boolean>;

beforeAll(async () => {
  brain = await openBrainOn(await openMemoryDb());
  const owner = ownerCaller('default');
  await putPage(brain, owner, 'people/alice-example', '---\ntitle: Alice Example\ntype: person\n---\nAlice is an early founder.\n');
  await putPage(brain, owner, 'people/dana-hidden', '---\ntitle: Dana Hidden\ntype: person\nvisibility: private\n---\nDana is a private contact.\n');
  const server = buildMcpServer({
    home: '/nonexistent',
    source: 'default',
    grant: undefined,
    version: '0.0.0-test',
    async runOp(caller, op, params) {
      try {
        return { ok: true, result: await runOperation(localOpContext(brain, caller, null), op, params) };
      } catch (err) {
        return { ok: false, envelope: errorEnvelope(err) };
      }
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'mcp-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await brain?.close();
});

interface Result {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}
const call = async (name: string, args: Record<string, unknown>): Promise<Result> => (await client.callTool({ name, arguments: args })) as Result;

/** A successful call: its structured content is the JSON text, and has every field the operation's result requires. */
async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await call(name, args);
  expect(r.isError, r.content[0]?.text).not.toBe(true);
  expect(r.structuredContent).toEqual(JSON.parse(r.content[0].text));
  findOperation(name)!.result.parse(r.structuredContent);
  return r.structuredContent!;
}

const eventCount = async (): Promise<number> => Number((await brain.db.query<{ n: number | string }>('SELECT count(*) AS n FROM events'))[0].n);

type Json = Record<string, unknown>;
/** The object schema of an array's items, also when the array is nullable (`anyOf: [array, null]`). */
const itemsOf = (prop: Json): Json | undefined =>
  (prop.items as Json | undefined) ?? ((prop.anyOf as Json[] | undefined)?.find((s) => s.type === 'array')?.items as Json | undefined);

/** Every property of a JSON schema object (recursively through arrays and objects) has a description. */
function undescribed(schema: Record<string, unknown>, at: string): string[] {
  const missing: string[] = [];
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [key, prop] of Object.entries(props)) {
    if (typeof prop.description !== 'string' || prop.description === '') missing.push(`${at}.${key}`);
    const items = itemsOf(prop);
    if (items?.properties) missing.push(...undescribed(items, `${at}.${key}[]`));
    if (prop.properties) missing.push(...undescribed(prop, `${at}.${key}`));
  }
  return missing;
}

describe('MCP tools: schemas, annotations, instructions', () => {
  let tools: Tool[];
  beforeAll(async () => {
    tools = (await client.listTools()).tools;
  });

  it('lists every tool with a title, a description, strict described inputs and a described output', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/\S/);
      expect(t.description, t.name).toMatch(/\S/);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(undescribed(t.inputSchema as Record<string, unknown>, `${t.name} input`)).toEqual([]);
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(Object.keys(t.outputSchema?.properties ?? {}), t.name).toEqual(expect.arrayContaining(['error', 'message']));
      expect(undescribed(t.outputSchema as Record<string, unknown>, `${t.name} output`)).toEqual([]);
    }
  });

  it('types remember items and turn fully, and states ranges and defaults', () => {
    const input = (name: string) => tools.find((t) => t.name === name)!.inputSchema as { properties: Record<string, Record<string, unknown>> };
    const items = input('remember').properties.items;
    expect(items).toMatchObject({ minItems: 1, maxItems: 20 });
    expect(itemsOf(items)).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(itemsOf(items)!.properties as object).sort()).toEqual(['entity', 'fact', 'kind', 'provenance', 'supersedes', 'ttl', 'visibility']);
    expect(undescribed(itemsOf(items)!, 'remember items')).toEqual([]);
    expect(JSON.stringify(input('remember').properties.kind)).toContain('"preference"');
    const turn = input('volunteer_context').properties.turn;
    expect(turn.type).toEqual(['number', 'null']);
    expect(JSON.stringify(input('volunteer_context').properties.max_pages)).toContain('{"type":"integer","minimum":1,"maximum":5}');
    expect(input('volunteer_context').properties.max_pages.description).toMatch(/from 1 to 5/);
    expect(input('volunteer_context').properties.days.description).toMatch(/Default 30/);
  });

  it('marks read-only tools read-only and write tools not, none open-world', () => {
    for (const t of tools) {
      const a = t.annotations!;
      expect(a.title, t.name).toBe(t.title);
      expect(a.openWorldHint, t.name).toBe(false);
      expect(typeof a.idempotentHint, t.name).toBe('boolean');
      if (READ_ONLY.includes(t.name)) expect(a, t.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      else expect(a, t.name).toMatchObject({ readOnlyHint: false, destructiveHint: WRITES[t.name] });
    }
    expect(tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name).sort()).toEqual(Object.keys(WRITES).sort());
  });

  it('sends instructions: what brainstream is, which tool when, and that private pages are invisible', () => {
    const text = client.getInstructions() ?? '';
    for (const name of ['context_pack', 'volunteer_context', 'get_page', 'remember']) expect(text).toContain(name);
    expect(text).toMatch(/private pages .* invisible/);
  });
});

describe('MCP tools: calls', () => {
  it('answers valid calls with structured content matching the output schema', async () => {
    expect(await ok('put_page', { slug: 'People/Bob-Sample', markdown: '---\ntitle: Bob Sample\ntype: person\n---\nBob builds boats.\n' })).toEqual({
      source_id: 'default',
      slug: 'people/bob-sample',
      status: 'created',
    });
    expect(await ok('get_page', { slug: 'people/bob-sample', session_id: 's1' })).toMatchObject({ title: 'Bob Sample', type: 'person' });
    const listed = await ok('list_pages', {});
    expect((listed.pages as { slug: string }[]).map((p) => p.slug)).toEqual(['people/alice-example', 'people/bob-sample']);
    const volunteered = await ok('volunteer_context', { window: 'user: ask Alice Example and Dana Hidden', session_id: 's1', turn: 1.5 });
    expect(volunteered).toMatchObject({ count: 1, window_turns: 1, pages: [{ slug: 'people/alice-example' }] });
    expect(await ok('volunteer_context', { stats: true, days: 7 })).toMatchObject({ days: 7, attribution: 'approximate' });
    expect(await ok('context_pack', { entities: ['Alice Example', 'Nobody'] })).toMatchObject({ unresolved: ['Nobody'], protocol_version: 1 });
    expect(await ok('core_status', {})).toMatchObject({ enabled: false });
    const single = await ok('remember', { fact: 'Bob prefers tea', provenance: 'chat 2026-04-07', entity: 'people/bob-sample', kind: 'preference' });
    expect(single).toMatchObject({ status: 'inserted', entity_slug: 'people/bob-sample', protocol_version: 1 });
    const batch = await ok('remember', { items: [{ fact: 'Alice moved to Lisbon', provenance: 'chat' }, { fact: 'Bob prefers tea', provenance: 'chat', entity: 'people/bob-sample' }], request_id: 'r1' });
    expect(batch).toMatchObject({ partial: false, request_id: 'r1', items: [{ index: 0, status: 'inserted' }, { index: 1, status: 'duplicate' }] });
    expect(await ok('list_facts', {})).toMatchObject({ count: 2 });
    expect(await ok('forget', { id: single.id as string, reason: 'changed' })).toMatchObject({ id: single.id, status: 'forgotten' });
    expect(await ok('delete_page', { slug: 'people/bob-sample' })).toEqual({ source_id: 'default', slug: 'people/bob-sample', status: 'deleted' });
  });

  it('refuses with one line and the {error, message} envelope as structured content; private pages stay invisible', async () => {
    for (const slug of ['people/nobody', 'people/dana-hidden']) {
      const r = await call('get_page', { slug });
      expect(r.isError).toBe(true);
      expect(r.content).toEqual([{ type: 'text', text: `brainstream: page_not_found: no page default:${slug}` }]);
      expect(r.structuredContent).toEqual({ error: 'page_not_found', message: `no page default:${slug}` });
    }
  });

  it.each([
    ['wrong type', 'get_page', { slug: 7 }, 'slug', /^get_page: slug: Invalid input: expected string, received number$/],
    ['wrong type for turn', 'volunteer_context', { window: 'user: hi', turn: '3' }, 'turn', /turn: .*expected number/],
    ['out of range', 'volunteer_context', { window: 'user: hi', max_pages: 99 }, 'max_pages', /max_pages: must be a whole number from 1 to 5$/],
    ['out of range', 'context_pack', { budget_tokens: 0 }, 'budget_tokens', /budget_tokens: .*>0/],
    ['unknown property', 'list_pages', { sources: 'default' }, 'sources', /^list_pages: sources: unknown parameter/],
    ['unknown property in an item', 'remember', { items: [{ fact: 'a', provenance: 'p', colour: 'red' }] }, 'items.0.colour', /items\.0\.colour: unknown parameter/],
    ['missing required', 'put_page', { slug: 'people/carol' }, 'markdown', /^put_page: markdown: required \(expected string\)$/],
    ['missing required', 'forget', {}, 'id', /^forget: id: /],
    ['a rule beyond the schema', 'remember', { items: [{ fact: 'a' }] }, 'provenance', /^items\[0\]\.provenance is required$/],
  ])('rejects %s (%s %j), naming the field, and changes nothing', async (_what, name, args, field, message) => {
    const before = await eventCount();
    const r = await call(name, args);
    expect(r.isError).toBe(true);
    expect(r.content).toHaveLength(1);
    expect(r.content[0].text).toMatch(/^brainstream: (invalid_params|provenance_required): [^\n]+$/);
    expect(r.structuredContent).toMatchObject({ field });
    expect(r.structuredContent?.message).toMatch(message);
    expect(r.content[0].text).toBe(`brainstream: ${String(r.structuredContent?.error)}: ${String(r.structuredContent?.message)}`);
    expect(await eventCount()).toBe(before);
  });
});
