import type { Db } from '../src/db/db.js';

/** How a volunteered page counts as used: a later read of the page, or a retrieval of it in the same session. */
export type Attribution = 'approximate' | 'session';

export interface ChannelCount {
  channel: string;
  count: number;
  last: Date | string | null;
}

/** Volunteer events after `since` per channel, of the given sources (null = every source). */
export async function countByChannel(db: Db, sources: readonly string[] | null, since: Date): Promise<ChannelCount[]> {
  return db.query<ChannelCount>(
    `SELECT channel, count(*)::int AS count, max(volunteered_at) AS last
       FROM context_volunteer_events
      WHERE volunteered_at > $1::timestamptz ${sources === null ? '' : 'AND source_id = ANY($2::text[])'}
      GROUP BY channel`,
    sources === null ? [since.toISOString()] : [since.toISOString(), sources],
  );
}

const USED_SQL: Record<Attribution, string> = {
  // Deleted pages never count.
  approximate: `EXISTS (SELECT 1 FROM pages p WHERE p.source_id = e.source_id AND p.slug = e.slug AND NOT p.deleted
                  AND p.last_retrieved_at > e.volunteered_at)`,
  session: `e.session_id IS NOT NULL AND EXISTS (SELECT 1 FROM page_retrievals r WHERE r.source_id = e.source_id
                  AND r.slug = e.slug AND r.session_id = e.session_id AND r.retrieved_at > e.volunteered_at)`,
};

export interface ArmUsage {
  match_arm: string;
  channel: string;
  volunteered: number;
  used: number;
}

/** Per (arm, channel): pages of the sources volunteered after `since`, and how many of them were then used. */
export async function usageByArm(db: Db, sources: readonly string[], since: Date, attribution: Attribution): Promise<ArmUsage[]> {
  return db.query<ArmUsage>(
    `SELECT e.match_arm, e.channel, count(*)::int AS volunteered,
            count(*) FILTER (WHERE ${USED_SQL[attribution]})::int AS used
       FROM context_volunteer_events e
      WHERE e.source_id = ANY($1::text[]) AND e.volunteered_at > $2::timestamptz
      GROUP BY e.match_arm, e.channel`,
    [sources, since.toISOString()],
  );
}
