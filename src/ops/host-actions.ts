import type { Caller } from '../caller.js';
import { checkAccess, type AccessRule } from './access.js';

/**
 * Process management on the brain host: no operation of a brain, so never reachable through
 * `call`, MCP or serve, but refused by the same access check, from this one static list.
 */
export const HOST_ACTIONS = Object.freeze({
  serve: { name: 'serve', access: 'owner', refusal: 'serve is an owner-only command' },
  service_install: {
    name: 'service_install',
    access: 'owner',
    refusal: 'service install is an owner-only command; ask the user to run it on the brain host',
  },
  service_uninstall: {
    name: 'service_uninstall',
    access: 'owner',
    refusal: 'service uninstall is an owner-only command; ask the user to run it on the brain host',
  },
} as const satisfies Record<string, AccessRule>);

export type HostActionName = keyof typeof HOST_ACTIONS;

/** Refuses `caller` the host action `name` when its declaration leaves the caller out. */
export const checkHostAction = (name: HostActionName, caller: Caller): void => checkAccess(HOST_ACTIONS[name], caller);
