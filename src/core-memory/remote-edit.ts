import { coreRef } from './core-ref.js';
import { CoreRemoteEditRefusedError } from './errors.js';

const REMOTE_EDIT_POLICIES = ['allow', 'notify', 'refuse'] as const;
export type RemoteEditPolicy = (typeof REMOTE_EDIT_POLICIES)[number];

/** `exempt`: the rule does not apply (owner write, page not core before, or no change). */
export type RemoteEditOutcome = 'exempt' | RemoteEditPolicy;

export interface RemoteEditQuestion {
  caller: 'owner' | 'remote';
  /** The stored row had `always_load: true` before the write. */
  wasCore: boolean;
  /** The write changes the page (a write that changes nothing is a no-op). */
  changed: boolean;
  policy: RemoteEditPolicy;
}

/**
 * `memory.core.remote_edit` for one write: only remote writes that change a page that
 * was core before the write are subject to it, because core text reaches every session.
 */
export function decideRemoteEdit(q: RemoteEditQuestion): RemoteEditOutcome {
  if (q.caller !== 'remote' || !q.wasCore || !q.changed) return 'exempt';
  return q.policy;
}

export function remoteEditRefusal(sourceId: string, slug: string): CoreRemoteEditRefusedError {
  return new CoreRemoteEditRefusedError(
    `core page ${coreRef(sourceId, slug)} cannot be edited remotely (memory.core.remote_edit is refuse). Make the edit on the brain host, or ask the user to run: brainstream config set memory.core.remote_edit notify`,
    { source_id: sourceId, slug },
  );
}
