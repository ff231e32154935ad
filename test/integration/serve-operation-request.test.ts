// The typed operation request of the serve socket (what the MCP server sends): serve runs the
// named operation through the registry, always as a remote caller, and answers its result or
// its error envelope.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/home.js';
import { remoteCaller } from '../../src/caller.js';
import { runProgram } from '../../src/cli/program.js';
import { runViaServe } from '../../src/mcp/op-route.js';
import { ServeRuntime } from '../../src/serve/serve-runtime.js';
import { request } from '../../src/serve-client/socket-client.js';
import { tempDir } from '../support/cli.js';

const home = tempDir('bs-operation-request-');
let runtime: ServeRuntime;

/** A forwarded command, as the owner on the brain host runs it. */
const owner = (argv: string[], stdin = '') =>
  request<{ stdout: string; stderr: string; exitCode: number }>(home.path, { kind: 'command', argv: ['--home', home.path, ...argv], stdin, env: {}, cwd: home.path }, { timeoutMs: 600_000 });

const MCP_CALLER = { identity: 'mcp:test-client', source: 'default', grant: ['default'] };

/** An operation request; `caller` is sent as given, whatever it holds. */
const operation = (op: string, params: unknown, caller: unknown = MCP_CALLER) =>
  request(home.path, { kind: 'operation', op, params, caller } as never, { timeoutMs: 600_000 });

beforeAll(async () => {
  runtime = await ServeRuntime.start(home.path, { role: 'serve', pollMs: 50, runCommand: runProgram });
  expect((await owner(['page', 'put', 'notes/open'], '# Open Note\n\nAnyone may read this.\n')).ok).toBe(true);
  expect((await owner(['page', 'put', 'notes/secret'], '---\ntitle: Secret Note\nvisibility: private\n---\nOnly the owner.\n')).ok).toBe(true);
  expect((await owner(['--source', 'team', 'page', 'put', 'notes/plan'], '# Team Plan\n\nThe plan.\n')).ok).toBe(true);
});

afterAll(async () => {
  await runtime?.stop();
  home.cleanup();
});

describe('the operation request', () => {
  it('runs the operation and answers its result', async () => {
    const r = await operation('get_page', { slug: 'notes/open' });
    expect(r).toMatchObject({ v: 1, ok: true, result: { source_id: 'default', slug: 'notes/open', title: 'Open Note' } });
  });

  it('runs it as a remote caller: a private page is absent for it, while the owner reads it', async () => {
    expect(await operation('get_page', { slug: 'notes/secret' })).toEqual({ v: 1, ok: false, error: 'page_not_found', message: 'no page default:notes/secret' });
    expect(await owner(['page', 'get', 'notes/secret'])).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('reads what the grant allows, and nothing else', async () => {
    expect(await operation('get_page', { slug: 'notes/plan', source_id: 'team' }, { ...MCP_CALLER, grant: ['default', 'team'] })).toMatchObject({
      ok: true,
      result: { title: 'Team Plan' },
    });
    expect(await operation('get_page', { slug: 'notes/plan', source_id: 'team' })).toMatchObject({ ok: false, error: 'page_not_found' });
  });

  it('never lets the request make its caller the owner', async () => {
    for (const caller of [
      { ...MCP_CALLER, kind: 'owner' },
      { ...MCP_CALLER, grant: null },
      { ...MCP_CALLER, grant: [] },
      { identity: 'owner', source: 'default' },
      'owner',
      null,
    ]) {
      expect(await operation('get_page', { slug: 'notes/secret' }, caller), JSON.stringify(caller)).toMatchObject({ ok: false, error: 'invalid_request' });
      expect(await operation('put_page', { slug: 'notes/planted', markdown: '# Planted\n' }, caller)).toMatchObject({ ok: false, error: 'invalid_request' });
    }
    // A request without a caller is no owner's either.
    const noCaller = { kind: 'operation', op: 'put_page', params: { slug: 'notes/planted', markdown: '# Planted\n' } };
    expect(await request(home.path, noCaller as never)).toMatchObject({ ok: false, error: 'invalid_request', message: expect.stringContaining('caller') });
    // Nothing of those requests ran.
    expect(await owner(['page', 'get', 'notes/planted'])).toMatchObject({ ok: true, exitCode: 1, stderr: 'brainstream: page_not_found: no page default:notes/planted\n' });
    // Even as `owner` by identity, the caller is remote.
    expect(await operation('get_page', { slug: 'notes/secret' }, { ...MCP_CALLER, identity: 'owner' })).toMatchObject({ ok: false, error: 'page_not_found' });
  });

  it('refuses an owner-only operation with owner_only', async () => {
    expect(await operation('core_ack', { slug: 'notes/open', revision: 'r1' })).toEqual({
      v: 1,
      ok: false,
      error: 'owner_only',
      message: 'core_ack is an owner-only operation; ask the user to run it on the brain host',
    });
  });

  it('names an unknown operation', async () => {
    expect(await operation('nope', {})).toMatchObject({ v: 1, ok: false, error: 'unknown_operation', message: expect.stringContaining('no operation "nope" (known: ') });
  });

  it('refuses invalid params with the envelope naming the field', async () => {
    expect(await operation('put_page', { slug: 'notes/x' })).toEqual({
      v: 1,
      ok: false,
      error: 'invalid_params',
      message: 'put_page: markdown: required (expected string)',
      field: 'markdown',
    });
    expect(await operation('get_page', { slug: 'notes/open', extra: 1 })).toMatchObject({ ok: false, error: 'invalid_params', field: 'extra' });
  });
});

describe('the MCP route through serve', () => {
  const caller = remoteCaller('default', ['default'], 'mcp:test-client');

  it('answers the result, or the error envelope alone', async () => {
    expect(await runViaServe(home.path, caller, 'list_pages', {})).toMatchObject({ ok: true, result: { pages: [{ slug: 'notes/open' }] } });
    expect(await runViaServe(home.path, caller, 'get_page', { slug: 'notes/secret' })).toEqual({
      ok: false,
      envelope: { error: 'page_not_found', message: 'no page default:notes/secret' },
    });
    expect(await runViaServe(home.path, caller, 'put_page', { slug: 'notes/x' })).toEqual({
      ok: false,
      envelope: { error: 'invalid_params', message: 'put_page: markdown: required (expected string)', field: 'markdown' },
    });
  });

  it('is null when no serve runs', async () => {
    const elsewhere = tempDir('bs-operation-request-none-');
    try {
      expect(await runViaServe(elsewhere.path, caller, 'list_pages', {})).toBeNull();
    } finally {
      elsewhere.cleanup();
    }
  });

  it('is null when the serve running knows no operation requests (an older installation)', async () => {
    const elsewhere = tempDir('bs-operation-request-old-');
    mkdirSync(join(elsewhere.path, 'run'), { recursive: true });
    writeFileSync(homePaths(elsewhere.path).secret, 'secret');
    const old = createServer((socket) => {
      socket.once('data', () => socket.end(`${JSON.stringify({ v: 1, ok: false, error: 'unknown_kind', message: 'unknown request kind "operation"' })}\n`));
    });
    await new Promise<void>((r) => old.listen(homePaths(elsewhere.path).socket, r));
    try {
      expect(await runViaServe(elsewhere.path, caller, 'list_pages', {})).toBeNull();
    } finally {
      await new Promise<void>((r) => old.close(() => r()));
      elsewhere.cleanup();
    }
  });
});
