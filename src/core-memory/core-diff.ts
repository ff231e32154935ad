import { coreRef } from './core-ref.js';
import { revisionToken } from './revision-token.js';
import { unifiedHunks } from './unified-diff.js';

export interface CoreDiffInput {
  source_id: string;
  slug: string;
  baseRevision: number;
  currentRevision: number;
  /** Core text of the base version; "" when that version does not exist. */
  baseText: string;
  /** Core text of the current version. */
  currentText: string;
}

/**
 * `core diff`: unified diff (3 lines of context) of a page's core text, headed
 * `--- <ref>@r<base>` / `+++ <ref>@r<current>`. No trailing newline.
 */
export function renderCoreDiff(input: CoreDiffInput): string {
  const ref = coreRef(input.source_id, input.slug);
  return [
    `--- ${ref}@${revisionToken(input.baseRevision)}`,
    `+++ ${ref}@${revisionToken(input.currentRevision)}`,
    ...unifiedHunks(input.baseText, input.currentText, 3),
  ].join('\n');
}

/** What `core diff` prints (exit 0) when the page has no pending remote edit. */
export const noPendingEditsMessage = (sourceId: string, slug: string): string =>
  `no unacknowledged remote edits for ${coreRef(sourceId, slug)}`;
