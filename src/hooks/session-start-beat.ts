import { createHash } from 'node:crypto';
import type { CoreDelivery } from './core-delivery.js';

/**
 * `core_revision` (the hash) of the empty block. A session start that printed no core
 * (core off, suppressed, unavailable, deadline, error) records it: the session got "".
 */
export const EMPTY_CORE_REVISION = createHash('sha256').update('', 'utf8').digest('hex').slice(0, 16);

const REVISION = /^[0-9a-f]{16}$/;

/** What every session-start heartbeat carries: the printed block's size and its revision. */
export interface SessionStartCoreFields {
  core_chars: number;
  core_revision: string;
}

/**
 * The core fields of a session-start heartbeat: the size of the printed block (0 when none)
 * and the brain-wide revision it was rendered from; the empty block's revision when no core
 * was fetched, or when its source reported none.
 */
export function sessionStartCoreFields(core: Pick<CoreDelivery, 'text' | 'revision'> | null): SessionStartCoreFields {
  if (core === null) return { core_chars: 0, core_revision: EMPTY_CORE_REVISION };
  return { core_chars: core.text.length, core_revision: REVISION.test(core.revision) ? core.revision : EMPTY_CORE_REVISION };
}
