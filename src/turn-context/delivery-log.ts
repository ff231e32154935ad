import { outsideCommand } from '../command-io.js';
import type { Envelope } from '../domain/events.js';
import type { Channel } from '../domain/event-schemas.js';
import { volunteeredEvent } from '../domain/volunteered-event.js';
import { logger } from '../logger.js';
import type { WirePage } from '../serve-client/protocol.js';

/** Channels a hook request may claim; any other claim (`op`, `reflex`, `watch`, junk) is logged as `claude-code`. */
const HOOK_CHANNELS: ReadonlySet<string> = new Set(['claude-code', 'codex', 'opencode']);

export const hookChannel = (claimed: unknown): Channel =>
  typeof claimed === 'string' && HOOK_CHANNELS.has(claimed) ? (claimed as Channel) : 'claude-code';

/** One volunteered event per delivered page (turn unknown: fresh ids). */
export function deliveryEvents(pages: readonly WirePage[], channel: Channel, sessionId: string | null): Envelope<'page.volunteered'>[] {
  return pages.map(({ source_id, slug, confidence, arm, rationale }) =>
    volunteeredEvent({ source_id, slug, confidence, arm, rationale }, { channel, sessionId, turn: null }),
  );
}

/**
 * Logging at the delivery point, after the response was written: best-effort, never failing or
 * delaying the caller. Pending appends are drained at shutdown.
 */
export class DeliveryLog {
  private readonly pending = new Set<Promise<void>>();

  /** Where the events go: an open brain's `commit`. */
  constructor(private readonly brain: { commit(events: readonly Envelope[]): Promise<void> }) {}

  record(events: readonly Envelope[]): void {
    if (events.length === 0) return;
    const p: Promise<void> = outsideCommand(() =>
      this.brain.commit(events).catch((err: unknown) => logger.warn({ err, op: 'delivery_log' }, 'could not log delivered pages')),
    ).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
