import type { LoggedEvent } from '../src/event-log/event-log.js';

/** A volunteered event as the usage projection keeps it. */
export interface UsageFact {
  id: string;
  source_id: string;
  slug: string;
  session_id: string | null;
  volunteered_at: string;
  /** UTC day of the event time, `YYYY-MM-DD`. */
  day: string;
  match_arm: string;
  channel: string;
}

/** What one run of events (no purge inside it) changes in the usage projection's state. */
export interface UsageSegment {
  /** Page → live after the run (the last page event wins). */
  liveness: Map<string, { source_id: string; slug: string; live: boolean }>;
  /** Page → latest retrieval in the run (any session). */
  pageRetrievals: Map<string, { source_id: string; slug: string; at: string }>;
  /** Page and session → latest retrieval in the run in that session. */
  sessionRetrievals: Map<string, { source_id: string; slug: string; session_id: string; at: string }>;
  facts: UsageFact[];
}

const pageKey = (sourceId: string, slug: string): string => `${sourceId}\u0000${slug}`;
const later = (a: string | undefined, b: string): boolean => a === undefined || Date.parse(b) > Date.parse(a);

/**
 * Folds a run of events that contains no purge. `watermark` is the purge watermark in force
 * (ms): volunteered events and session retrievals older than it no longer matter.
 */
export function foldUsageSegment(events: readonly LoggedEvent[], watermark: number | null): UsageSegment {
  const seg: UsageSegment = { liveness: new Map(), pageRetrievals: new Map(), sessionRetrievals: new Map(), facts: [] };
  const seen = new Set<string>();
  const old = (at: string): boolean => watermark !== null && Date.parse(at) < watermark;
  for (const { event } of events) {
    switch (event.type) {
      case 'page.upserted':
      case 'page.deleted': {
        const { source_id, slug } = event.data;
        seg.liveness.set(pageKey(source_id, slug), { source_id, slug, live: event.type === 'page.upserted' });
        break;
      }
      case 'page.retrieved': {
        const { source_id, slug, session_id } = event.data;
        const pk = pageKey(source_id, slug);
        if (later(seg.pageRetrievals.get(pk)?.at, event.at)) seg.pageRetrievals.set(pk, { source_id, slug, at: event.at });
        if (session_id === null || old(event.at)) break;
        const sk = `${pk}\u0000${session_id}`;
        if (later(seg.sessionRetrievals.get(sk)?.at, event.at)) seg.sessionRetrievals.set(sk, { source_id, slug, session_id, at: event.at });
        break;
      }
      case 'page.volunteered': {
        if (old(event.at) || seen.has(event.id)) break;
        seen.add(event.id);
        const d = event.data;
        seg.facts.push({
          id: event.id,
          source_id: d.source_id,
          slug: d.slug,
          session_id: d.session_id,
          volunteered_at: event.at,
          day: new Date(event.at).toISOString().slice(0, 10),
          match_arm: d.match_arm,
          channel: d.channel,
        });
        break;
      }
      default:
        break;
    }
  }
  return seg;
}

/**
 * Every page whose marks the segment moved: the stored facts of these pages may need their "used"
 * flags recomputed. A page only volunteered in the segment keeps its stored facts' flags (they
 * follow the marks, which did not move); its new facts take their flags from the marks as they
 * are stored.
 */
export function markedPages(seg: UsageSegment): { sources: string[]; slugs: string[] } {
  const pages = new Map<string, [string, string]>();
  for (const [k, v] of seg.liveness) pages.set(k, [v.source_id, v.slug]);
  for (const [k, v] of seg.pageRetrievals) pages.set(k, [v.source_id, v.slug]);
  for (const v of seg.sessionRetrievals.values()) pages.set(pageKey(v.source_id, v.slug), [v.source_id, v.slug]);
  const sources: string[] = [];
  const slugs: string[] = [];
  for (const [s, g] of pages.values()) {
    sources.push(s);
    slugs.push(g);
  }
  return { sources, slugs };
}
