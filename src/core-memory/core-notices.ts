import { cmp } from '../code-unit-order.js';
import { coreRef } from './core-ref.js';
import { revisionToken } from './revision-token.js';

export interface PendingNotice {
  source_id: string;
  slug: string;
  /** The latest unacknowledged remote revision. */
  revision: number;
}

const MAX_NOTICE_LINES = 5;

/** The notice line for one core page with unacknowledged remote edits. */
export function coreNoticeLine(n: PendingNotice): string {
  const ref = coreRef(n.source_id, n.slug);
  const token = revisionToken(n.revision);
  return (
    `Core page ${ref} was edited remotely (revision ${token}). ` +
    `Review: brainstream core diff --source ${n.source_id} ${n.slug} — ` +
    `accept: brainstream core ack --source ${n.source_id} ${n.slug} --revision ${token}`
  );
}

/**
 * Notice lines shown after the core block: one per page (source, slug order), at most 5,
 * then `… and <k> more (brainstream core status)`. Not part of the block, never budgeted.
 */
export function coreNoticeLines(notices: readonly PendingNotice[]): string[] {
  const sorted = [...notices].sort((a, b) => cmp(a.source_id, b.source_id) || cmp(a.slug, b.slug));
  const lines = sorted.slice(0, MAX_NOTICE_LINES).map(coreNoticeLine);
  const rest = sorted.length - MAX_NOTICE_LINES;
  if (rest > 0) lines.push(`… and ${rest} more (brainstream core status)`);
  return lines;
}
