import type { Brain } from '../brain/brain.js';
import { outsideCommand } from '../cli/cli-io.js';
import { makeEvent, type Envelope } from '../domain/events.js';
import type { Channel } from '../domain/event-schemas.js';
import { logger } from '../logger.js';
import type { WirePage } from './protocol.js';

/** Channels a hook request may claim; any other claim (`op`, `reflex`, `watch`, junk) is logged as `claude-code`. */
const HOOK_CHANNELS: ReadonlySet<string> = new Set(['claude-code', 'codex', 'opencode']);

export const hookChannel = (claimed: unknown): Channel =>
  typeof claimed === 'string' && HOOK_CHANNELS.has(claimed) ? (claimed as Channel) : 'claude-code';

/** Session ids are stored truncated to 256; an empty one is none. */
export const loggedSession = (id: unknown): string | null => (typeof id === 'string' && id !== '' ? id.slice(0, 256) : null);

/** One volunteered event per delivered page (turn unknown: fresh ids). */
export function deliveryEvents(pages: readonly WirePage[], channel: Channel, sessionId: string | null): Envelope<'page.volunteered'>[] {
  return pages.map((p) =>
    makeEvent(
      'page.volunteered',
      {
        source_id: p.source_id,
        slug: p.slug,
        confidence: p.confidence,
        match_arm: p.arm as Envelope<'page.volunteered'>['data']['match_arm'],
        rationale: p.rationale,
        channel,
        session_id: sessionId,
        turn: null,
      },
      { key: sessionId ?? `${p.source_id}/${p.slug}` },
    ),
  );
}

/**
 * Logging at the delivery point, after the response was written: best-effort, never failing or
 * delaying the caller. Pending appends are drained at shutdown.
 */
export class DeliveryLog {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly brain: Brain) {}

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
