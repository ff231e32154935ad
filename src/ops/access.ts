import { BrainstreamError } from '../errors.js';
import type { Caller } from '../caller.js';
import type { OperationAccess } from './operations/operation.js';

/** What an access check reads from an operation or a host action: its name and who may run it. */
export interface AccessRule {
  name: string;
  access: OperationAccess;
  /** The refusal message, when the rule names the command a user types rather than the operation. */
  refusal?: string;
}

/**
 * Refuses a caller the rule leaves out (`owner_only` for a remote caller). Operations, host
 * actions (serve, service) and every surface come through here: the one place a caller's kind
 * decides whether something may run at all.
 */
export function checkAccess(rule: AccessRule, caller: Caller): void {
  if (rule.access === 'owner' && caller.kind !== 'owner') {
    throw new BrainstreamError('owner_only', rule.refusal ?? `${rule.name} is an owner-only operation; ask the user to run it on the brain host`);
  }
}
