// Process management (serve, service install and uninstall) is refused to a remote caller by the
// same access check as the operations, from the host actions' static list; a host operation is
// refused before its brain is asked for.
import { describe, expect, it } from 'vitest';
import { ownerCaller, remoteCaller } from '../../../src/caller.js';
import { checkHostAction, HOST_ACTIONS } from '../../../src/ops/host-actions.js';
import { errorEnvelope, runHostOperation, type HostOpContext } from '../../../src/ops/registry.js';

const refusedWith = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return errorEnvelope(err);
  }
  throw new Error('expected a refusal');
};

describe('host actions', () => {
  it('are each the owner’s alone', () => {
    expect(Object.isFrozen(HOST_ACTIONS)).toBe(true);
    expect(Object.values(HOST_ACTIONS).map((a) => [a.name, a.access])).toEqual([
      ['serve', 'owner'],
      ['service_install', 'owner'],
      ['service_uninstall', 'owner'],
    ]);
  });

  it('refuse a remote caller with owner_only, naming the command; let the owner through', () => {
    expect(refusedWith(() => checkHostAction('serve', remoteCaller('default')))).toEqual({ error: 'owner_only', message: 'serve is an owner-only command' });
    for (const [name, sub] of [['service_install', 'install'], ['service_uninstall', 'uninstall']] as const) {
      expect(refusedWith(() => checkHostAction(name, remoteCaller('default')))).toEqual({
        error: 'owner_only',
        message: `service ${sub} is an owner-only command; ask the user to run it on the brain host`,
      });
      expect(() => checkHostAction(name, ownerCaller())).not.toThrow();
    }
    expect(() => checkHostAction('serve', ownerCaller())).not.toThrow();
  });
});

describe('runHostOperation', () => {
  /** A host whose brain must never be asked for. */
  const host = (caller: HostOpContext['caller']): HostOpContext => ({
    caller,
    home: null,
    withBrain: () => Promise.reject(new Error('the brain was asked for')),
  });

  it('refuses a remote caller of a host or a brain operation before the brain is asked for', async () => {
    for (const [name, params, message] of [
      ['purge', { dry_run: true }, 'purge is an owner-only command'],
      ['config_set', { key: 'memory.core.enabled', value: 'true' }, 'config set is an owner-only command; ask the user to run it on the brain host'],
      ['rebuild', {}, 'rebuild is an owner-only command'],
      ['core_init', {}, 'core init is an owner-only command; ask the user to run it on the brain host'],
    ] as const) {
      await expect(runHostOperation(host(remoteCaller('default')), name, params)).rejects.toMatchObject({ code: 'owner_only', message });
    }
  });

  it('lets the owner through to the params, and to the brain only for an operation that works on it', async () => {
    await expect(runHostOperation(host(ownerCaller()), 'purge', { ttl_days: 0 })).rejects.toMatchObject({ code: 'invalid_params', details: { field: 'ttl_days' } });
    await expect(runHostOperation(host(ownerCaller()), 'rebuild', {})).rejects.toThrow('the brain was asked for');
    // config_set never opens the brain: an in-memory home has no config file to change.
    await expect(runHostOperation(host(ownerCaller()), 'config_set', { key: 'memory.core.enabled', value: 'true' })).rejects.toMatchObject({ code: 'no_home' });
  });
});
