import type { Channel, PageVolunteered } from './event-schemas.js';
import { deterministicId, makeEvent, type Envelope } from './events.js';

/** A page as volunteered to a reader; `display`/`synopsis` only where the reader was shown them. */
export interface VolunteeredPageFacts {
  source_id: string;
  slug: string;
  confidence: number;
  arm: string;
  rationale: string;
  display?: string;
  synopsis?: string;
}

/** Where a page was volunteered: the channel, and the session and turn when known. */
export interface VolunteeredWhere {
  channel: Channel;
  sessionId: string | null;
  turn: number | null;
  /** Event time (default now): a streamed turn's volunteered pages carry the turn's time. */
  at?: string;
}

/**
 * The `page.volunteered` event of one page, for every channel. Its id is derived from channel,
 * session, turn and page when session and turn are known, so a retried decision is stored once;
 * otherwise (a delivery with no turn) every delivery is its own event.
 */
export function volunteeredEvent(page: VolunteeredPageFacts, where: VolunteeredWhere): Envelope<'page.volunteered'> {
  const { channel, sessionId, turn } = where;
  const data: PageVolunteered = {
    source_id: page.source_id,
    slug: page.slug,
    confidence: page.confidence,
    match_arm: page.arm as PageVolunteered['match_arm'],
    rationale: page.rationale,
    channel,
    session_id: sessionId,
    turn,
    ...(page.display !== undefined ? { display: page.display } : {}),
    ...(page.synopsis !== undefined ? { synopsis: page.synopsis } : {}),
  };
  const id = sessionId !== null && turn !== null ? deterministicId('vol', channel, sessionId, turn, page.source_id, page.slug) : undefined;
  return makeEvent('page.volunteered', data, { key: sessionId ?? `${page.source_id}/${page.slug}`, at: where.at, id });
}
