import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { listFacts } from '../../projections/facts-queries.js';

export interface FactListing {
  id: string;
  entity: string | null;
  kind: string;
  fact: string;
  visibility: string;
  provenance: string;
  created_at: string;
  /** Withdrawn: forgotten, or superseded by a newer fact. */
  forgotten: boolean;
}

/**
 * `facts list`: the stored facts the caller may read, newest first. Remote callers see their
 * readable sources' `world` facts only; withdrawn facts only with `includeForgotten`.
 */
export async function factsList(
  brain: Brain,
  caller: Caller,
  options: { source: string | null; entity: string | null; includeForgotten: boolean },
): Promise<{ facts: FactListing[]; count: number }> {
  // Facts may live in a source without pages (the fact store only), so the grant is used as is.
  let sources: readonly string[] | null = caller.grant;
  if (options.source !== null) sources = sources === null ? [options.source] : sources.filter((s) => s === options.source);
  const rows = await listFacts(brain.db, {
    sources,
    entity: options.entity,
    worldOnly: caller.kind === 'remote',
    includeWithdrawn: options.includeForgotten,
  });
  const facts = rows.map((f) => ({
    id: String(f.id),
    entity: f.entity,
    kind: f.kind,
    fact: f.fact,
    visibility: f.visibility,
    provenance: f.provenance,
    created_at: f.created_at,
    forgotten: f.status !== 'active',
  }));
  return { facts, count: facts.length };
}
