// The operation registry is one static list: every operation is there as soon as the registry is
// loaded (no module adds one when the CLI is built), each declares who may run it, and the access
// rule is enforced by runOperation before anything else of the call is looked at.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerCaller, remoteCaller } from '../../../src/caller.js';
import { MCP_TOOLS } from '../../../src/mcp/mcp-server.js';
import { OPERATIONS } from '../../../src/ops/operation-list.js';
import { checkAccess, errorEnvelope, findOperation, operationNames, runOperation, type OpContext } from '../../../src/ops/registry.js';

const ROOT = resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const EVERY_OPERATION = [
  'compile_context',
  'config_set',
  'context_pack',
  'core_ack',
  'core_init',
  'core_status',
  'core_suggest_apply',
  'delete_page',
  'forget',
  'get_page',
  'import',
  'list_facts',
  'list_pages',
  'purge',
  'put_page',
  'rebuild',
  'remember',
  'replay',
  'volunteer_context',
];

/** The owner's operations: core review and the maintenance of a brain behind the CLI commands. */
const OWNER_OPERATIONS = ['compile_context', 'config_set', 'core_ack', 'core_init', 'core_suggest_apply', 'import', 'purge', 'rebuild', 'replay'];

/** A context with nothing behind it: any use of the brain would throw. */
const emptyContext = (caller: OpContext['caller']): OpContext => ({ caller }) as OpContext;

const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: unknown) => errorEnvelope(err),
  );

describe('the operation registry', () => {
  it('lists every operation once, remember, forget and list_facts included', () => {
    expect(operationNames()).toEqual(EVERY_OPERATION);
    expect(new Set(OPERATIONS.map((op) => op.name)).size).toBe(OPERATIONS.length);
    for (const name of EVERY_OPERATION) expect(findOperation(name)?.name).toBe(name);
  });

  it('is filled by no module at run time', () => {
    expect(Object.isFrozen(OPERATIONS)).toBe(true);
    const adding = sourceFiles(join(ROOT, 'src')).filter((f) => /\bregister(Memory)?Operations?\b/.test(readFileSync(f, 'utf8')));
    expect(adding).toEqual([]);
  });

  it('has every MCP tool', () => {
    for (const tool of MCP_TOOLS) expect(findOperation(tool), tool).toBeDefined();
  });

  it('has each operation declare its access; the MCP tools are open to any caller, the maintenance operations to the owner alone', () => {
    for (const op of OPERATIONS) expect(['owner', 'any']).toContain(op.access);
    expect(OPERATIONS.filter((op) => op.access === 'owner').map((op) => op.name).sort()).toEqual(OWNER_OPERATIONS);
    for (const name of OWNER_OPERATIONS) expect(MCP_TOOLS, name).not.toContain(name);
    for (const tool of MCP_TOOLS) expect(findOperation(tool)!.access, tool).toBe('any');
  });
});

describe('the access rule', () => {
  const coreAck = findOperation('core_ack')!;

  it('refuses a remote caller of an owner-only operation with owner_only, and lets the owner through', () => {
    expect(() => checkAccess(coreAck, remoteCaller('default'))).toThrow(expect.objectContaining({ code: 'owner_only' }));
    expect(() => checkAccess(coreAck, ownerCaller())).not.toThrow();
    expect(() => checkAccess(findOperation('get_page')!, remoteCaller('default'))).not.toThrow();
  });

  it('is checked by runOperation before the params and before the brain', async () => {
    // Valid params or not, the answer is the refusal, and the (empty) context is never used.
    for (const params of [{ slug: 'prefs', revision: 'r1' }, { slug: 7 }, {}]) {
      expect(await refusal(runOperation(emptyContext(remoteCaller('default', ['default', 'team'], 'mcp:x')), 'core_ack', params))).toEqual({
        error: 'owner_only',
        message: 'core_ack is an owner-only operation; ask the user to run it on the brain host',
      });
    }
    // The owner gets as far as the params.
    expect(await refusal(runOperation(emptyContext(ownerCaller()), 'core_ack', { slug: 7 }))).toMatchObject({ error: 'invalid_params', field: 'slug' });
  });

  it('names unknown operations before anything else', async () => {
    expect(await refusal(runOperation(emptyContext(remoteCaller('default')), 'nope', {}))).toMatchObject({
      error: 'unknown_operation',
      message: `no operation "nope" (known: ${EVERY_OPERATION.join(', ')})`,
    });
  });
});
