import type { Db } from '../db/db.js';
import { recentWorldFacts, type RecentFact } from '../../projections/facts-queries.js';
import { logger } from '../logger.js';
import type { HotFact } from '../turn-context/turn-block.js';

const DAY_MS = 86_400_000;
const HOT_FACTS_CAP = 10;
/** `remember` stores every fact with confidence 1.0; the store keeps no other. */
const STORED_CONFIDENCE = 1;

/** Active until the end of its `valid_until` day (a date), or until that instant (a datetime). */
function activeAt(validUntil: string | null, now: Date): boolean {
  if (validUntil === null || validUntil.trim() === '') return true;
  if (/^\d{4}-\d{2}-\d{2}$/.test(validUntil)) return validUntil >= now.toISOString().slice(0, 10);
  const t = Date.parse(validUntil);
  return Number.isNaN(t) || t > now.getTime();
}

/**
 * Hot facts of the turn block from the fact store: at most 10
 * active `world` facts of the source recorded in the last 24 h, newest first (they all carry
 * confidence 1.0). The store does not record sessions, so "recorded in this session" is not
 * distinguishable and the 24-hour rule applies. Rows are cached per source until the next
 * fact event, so a turn reads no database.
 */
export class HotFacts {
  private readonly bySource = new Map<string, Promise<RecentFact[]>>();

  constructor(private readonly db: Db) {}

  /** A fact was recorded or withdrawn. */
  invalidate(): void {
    this.bySource.clear();
  }

  async forSource(sourceId: string, now = new Date()): Promise<HotFact[]> {
    let rows = this.bySource.get(sourceId);
    if (!rows) {
      rows = this.load(sourceId, now);
      this.bySource.set(sourceId, rows);
    }
    const since = now.getTime() - DAY_MS;
    return (await rows)
      .filter((r) => new Date(r.created_at).getTime() > since && activeAt(r.valid_until, now))
      .slice(0, HOT_FACTS_CAP)
      .map((r) => ({ fact: r.fact, entity_slug: r.entity ?? '', confidence: STORED_CONFIDENCE }));
  }

  /** The source's active world facts of the last 24 h as of `now`, newest first; none if the store cannot be read. */
  private async load(sourceId: string, now: Date): Promise<RecentFact[]> {
    try {
      return await recentWorldFacts(this.db, sourceId, new Date(now.getTime() - DAY_MS));
    } catch (err) {
      logger.warn({ err }, 'could not read hot facts; the turn block goes without them');
      this.bySource.delete(sourceId);
      return [];
    }
  }
}
