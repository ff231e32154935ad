import type { Candidate } from './extract.js';

/**
 * The longest name wins. In "I finished Cyberpunk 2077 last night" the capitalised-run pass
 * sees "Cyberpunk" and the gazetteer sees "Cyberpunk 2077"; both name pages, but the speaker
 * meant one thing. A sighting lying inside a strictly longer sighting of another key that names
 * a page (any arm) in the same turn is not a mention of its own, whichever passes found them.
 * Spans, not strings: "Cyberpunk as a genre is older than Cyberpunk 2077" still mentions
 * "Cyberpunk" once on its own, so it keeps that sighting.
 *
 * Only sightings of `matched` keys count on either side: an unmatched key names nothing, so it
 * can neither be shadowed usefully nor shadow a real name ("Seattle Public" naming no page leaves
 * "Seattle" alone). Candidates without spans are never covered and never cover.
 *
 * Returns `cands` itself when nothing is covered (the common case, no allocation beyond the
 * scan); otherwise a new list without the candidates none of whose sightings is left, and copies
 * of the partly covered ones holding their remaining spans.
 */
export function withoutCoveredMentions(cands: readonly Candidate[], matched: ReadonlySet<string>): readonly Candidate[] {
  let sightings = 0;
  for (const c of cands) if (c.spans && matched.has(c.key)) sightings += c.spans.length >> 1;
  if (sightings < 2) return cands;
  let out: Candidate[] | null = null;
  for (let i = 0; i < cands.length; i++) {
    const c = cands[i];
    const left = c.spans && matched.has(c.key) ? uncoveredSpans(c, cands, matched) : null;
    if (left === null) {
      out?.push(c);
      continue;
    }
    out ??= cands.slice(0, i);
    if (left.length > 0) out.push({ ...c, spans: left });
  }
  return out ?? cands;
}

/** The spans of `c` no longer sighting of another matched key contains; null when none is covered. */
function uncoveredSpans(c: Candidate, cands: readonly Candidate[], matched: ReadonlySet<string>): number[] | null {
  const spans = c.spans as number[];
  let left: number[] | null = null;
  for (let s = 0; s < spans.length; s += 2) {
    const covered = coveredBy(spans[s], spans[s + 1], c.key, cands, matched);
    if (covered && left === null) left = spans.slice(0, s);
    else if (!covered) left?.push(spans[s], spans[s + 1]);
  }
  return left;
}

function coveredBy(start: number, end: number, key: string, cands: readonly Candidate[], matched: ReadonlySet<string>): boolean {
  const length = end - start;
  for (const other of cands) {
    if (other.key === key || !other.spans || !matched.has(other.key)) continue;
    const spans = other.spans;
    for (let s = 0; s < spans.length; s += 2) {
      if (spans[s] <= start && end <= spans[s + 1] && spans[s + 1] - spans[s] > length) return true;
    }
  }
  return false;
}
