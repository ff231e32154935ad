import type { PageIndex, PageRecord } from '../../context/page-index.js';
import { resolveCandidates } from '../../context/resolve.js';
import { normalizeAlias } from '../../context/strings.js';

/**
 * One standing entity: an exact slug in the readable sources, else the
 * `alias` / `title` arms with the name as a strong candidate. Only a unique hit counts.
 * Private pages never appear in a pack, for any caller, so they are not candidates at all
 * (they never resolve and never make another page's name ambiguous).
 */
export function lookupEntity(index: PageIndex, name: string, scope: readonly string[]): PageRecord | null {
  const slug = name.trim().toLowerCase();
  const bySlug = scope.map((s) => index.get(s, slug)).filter((rec): rec is PageRecord => rec !== undefined && !rec.private);
  if (bySlug.length > 0) return bySlug.length === 1 ? bySlug[0] : null;

  const key = normalizeAlias(name);
  if (key === '') return null;
  const pointers = resolveCandidates([{ key, query: name.trim(), weak: false }], index, {
    scope,
    remote: true,
    lexicalArms: false,
  });
  for (const arm of ['alias', 'title'] as const) {
    const hits = pointers.filter((p) => p.arm === arm);
    if (hits.length === 1) return hits[0].rec;
    if (hits.length > 1) return null;
  }
  return null;
}
