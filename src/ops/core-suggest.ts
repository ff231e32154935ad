import type { Brain } from '../brain/brain.js';
import { readableSources, type Caller } from '../caller.js';
import { cmp } from '../code-unit-order.js';
import { brainConfig } from '../config/brain-config.js';
import { applyCoreWrite, measureCore } from '../core-memory/core-budget.js';
import { isMarkedCore, isQuarantined, MAX_CORE_PAGES } from '../core-memory/core-page.js';
import { buildCoreSection } from '../core-memory/core-section.js';
import { suggestScore } from '../core-memory/core-suggest-score.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { BrainstreamError } from '../errors.js';
import { utcDay } from '../pages/facts-table.js';
import { isPrivate } from '../pages/page.js';
import { coreAdd, type CoreMarkResult } from './core-mark.js';
import { loadCoreRows } from '../../projections/pages-queries.js';
import { listLivePages, listSources } from '../../projections/pages-queries.js';

const MAX_SUGGESTIONS = 10;

export interface CoreSuggestion {
  score: number;
  source_id: string;
  slug: string;
  /** Size of the page's section, what it would add to core: its heading and core text. */
  chars: number;
  last_retrieved_at: string | null;
}

/**
 * `core suggest`: live, non-core, non-private, non-quarantined pages the caller can read that
 * score (profile 3, preferences 2, open project 1) and would still fit the budget; by score,
 * then most recently read (never read last), source, slug; at most 10. Read-only.
 */
export async function coreSuggestions(brain: Brain, caller: Caller, now = new Date()): Promise<CoreSuggestion[]> {
  const today = utcDay(now);
  const maxChars = memorySettings(brainConfig(brain)).maxChars;
  const core = await loadCoreRows(brain.db);
  const pages = await listLivePages(brain.db, readableSources(caller, await listSources(brain.db)));
  const out: CoreSuggestion[] = [];
  for (const p of pages) {
    if (isMarkedCore(p.frontmatter) || isPrivate(p) || isQuarantined(p.frontmatter)) continue;
    const score = suggestScore(p);
    if (score === 0) continue;
    const marked = { ...p, frontmatter: { ...p.frontmatter, always_load: true } };
    const after = measureCore(applyCoreWrite(core, { kind: 'upsert', page: marked }), today);
    if (after.chars > maxChars || after.count > MAX_CORE_PAGES) continue;
    out.push({ score, source_id: p.source_id, slug: p.slug, chars: buildCoreSection(marked, today).chars, last_retrieved_at: p.last_retrieved_at });
  }
  const read = (s: CoreSuggestion): number => (s.last_retrieved_at === null ? -Infinity : Date.parse(s.last_retrieved_at));
  return out
    .sort((a, b) => b.score - a.score || read(b) - read(a) || cmp(a.source_id, b.source_id) || cmp(a.slug, b.slug))
    .slice(0, MAX_SUGGESTIONS);
}

export interface SuggestApplyResult {
  applied: CoreMarkResult[];
  /** The first refusal; later suggestions were not tried. */
  refused: { suggestion: CoreSuggestion; error: BrainstreamError } | null;
}

/** `core suggest --apply`: marks the suggestions in order with `core add` semantics, stopping at the first refusal. */
export async function applySuggestions(brain: Brain, caller: Caller, suggestions: readonly CoreSuggestion[], now = new Date()): Promise<SuggestApplyResult> {
  const applied: CoreMarkResult[] = [];
  for (const s of suggestions) {
    try {
      applied.push(await coreAdd(brain, caller, s.source_id, s.slug, undefined, now));
    } catch (err) {
      if (err instanceof BrainstreamError) return { applied, refused: { suggestion: s, error: err } };
      throw err;
    }
  }
  return { applied, refused: null };
}
