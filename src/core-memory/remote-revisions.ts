import { coreRef } from './core-ref.js';
import { RevisionNotFoundError } from './errors.js';
import { parseRevisionToken, revisionToken } from './revision-token.js';

/** Remote edits of one core page saved under `notify`, and how far the owner has acked. */
export interface RemoteRevisionState {
  source_id: string;
  slug: string;
  /** Versions saved by remote writes that raised a notice, ascending. */
  remote_revisions: number[];
  /** Highest acknowledged version; 0 when nothing was ever acknowledged. */
  acked_through: number;
}

export const emptyRemoteRevisionState = (sourceId: string, slug: string): RemoteRevisionState => ({
  source_id: sourceId,
  slug,
  remote_revisions: [],
  acked_through: 0,
});

/** Remote revisions not yet acknowledged, ascending. Owner edits never clear them. */
export const pendingRevisions = (state: RemoteRevisionState): number[] =>
  state.remote_revisions.filter((v) => v > state.acked_through);

/** The revision a notice names: the latest pending one, or null. */
export function latestPending(state: RemoteRevisionState): number | null {
  const pending = pendingRevisions(state);
  return pending.length === 0 ? null : pending[pending.length - 1];
}

/**
 * `core ack --revision rN`: acknowledges rN and every earlier revision. Only a pending
 * remote revision can be acked (`revision_not_found` otherwise; the state is unchanged).
 */
export function ackRevision(state: RemoteRevisionState, token: string): RemoteRevisionState {
  const version = parseRevisionToken(token);
  if (version === null || !pendingRevisions(state).includes(version)) {
    const pending = pendingRevisions(state).map(revisionToken);
    const hint = pending.length === 0 ? 'it has none' : `pending: ${pending.join(', ')}`;
    throw new RevisionNotFoundError(
      `${token} is not a pending remote revision of ${coreRef(state.source_id, state.slug)} (${hint})`,
      { source_id: state.source_id, slug: state.slug, revision: token },
    );
  }
  return { ...state, acked_through: version };
}

/**
 * Base of `core diff`: the last acknowledged version, or if none the version before the
 * first pending remote revision. Null when nothing is pending.
 */
export function diffBaseRevision(state: RemoteRevisionState): number | null {
  const pending = pendingRevisions(state);
  if (pending.length === 0) return null;
  return state.acked_through > 0 ? state.acked_through : pending[0] - 1;
}
