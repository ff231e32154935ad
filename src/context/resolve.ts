import type { MatchArm } from '../domain/event-schemas.js';
import type { PageIndex, PageRecord, SourceIndex } from './page-index.js';
import { isAllCjk, slugify } from './strings.js';

/** What resolution reads of a window candidate. */
export interface ResolveCandidate {
  key: string;
  query: string;
  weak: boolean;
  /**
   * A gazetteer hit: a whole registered title or alias found verbatim in the text. It feeds
   * only the `alias` and `title` arms (never slug or surname lookups).
   */
  gazetteer?: boolean;
}

/** A resolved page before gating: one per `(source_id, slug)`. */
export interface Pointer {
  rec: PageRecord;
  arm: MatchArm;
  /** Key of the candidate that resolved it (joins the window candidate when scoring). */
  matchedKey: string;
  /** Position of the page's source in the scope list. */
  sourcePos: number;
}

export interface ResolveOptions {
  /** Source ids in scope, in order (duplicates ignored). */
  scope: readonly string[];
  /** Remote callers: private pages do not exist at all, not even for uniqueness. */
  remote: boolean;
  /** Weak aliases, surname and CJK arms (setting `retrieval.reflex.lexical_arms`). */
  lexicalArms: boolean;
  /**
   * Filled with every candidate key that named a page through some arm, including keys whose
   * page an earlier key had already claimed (the span rule needs to know every real name).
   */
  matchedKeys?: Set<string>;
}

const WHITESPACE = /\s/u;
const UPPER_FIRST = /^\p{Lu}/u;

interface ScopedSource {
  src: SourceIndex;
  pos: number;
}

function scopedSources(index: PageIndex, scope: readonly string[]): ScopedSource[] {
  const out: ScopedSource[] = [];
  const seen = new Set<string>();
  for (let pos = 0; pos < scope.length; pos++) {
    const id = scope[pos];
    if (seen.has(id)) continue;
    seen.add(id);
    const src = index.source(id);
    if (src) out.push({ src, pos });
  }
  return out;
}

/**
 * Resolves window candidates (in window-merge order) to pointers through the arms, with arm
 * precedence alias (strong keys, then weak) > title / slug-suffix > title-surname > cjk-title.
 * Every lookup is a map hit; nothing scans the index.
 */
export function resolveCandidates(cands: readonly ResolveCandidate[], index: PageIndex, opts: ResolveOptions): Pointer[] {
  const { remote, lexicalArms } = opts;
  const visible = (rec: PageRecord): boolean => !(remote && rec.private);

  const strongKeys: string[] = [];
  const weakKeys: string[] = [];
  // Lists as parallel arrays (entry = [text, key of the first candidate giving it]).
  const titleKeyOf = new Map<string, string>();
  const titles: string[] = [];
  const titleKeys: string[] = [];
  const slugs: string[] = [];
  const slugKeys: string[] = [];
  const surnames: string[] = [];
  const surnameKeys: string[] = [];
  for (const c of cands) {
    if (c.weak) {
      if (lexicalArms) weakKeys.push(c.key);
      continue;
    }
    strongKeys.push(c.key);
    const lower = c.query.toLowerCase();
    if (!titleKeyOf.has(lower)) {
      titleKeyOf.set(lower, c.key);
      titles.push(lower);
      titleKeys.push(c.key);
    }
    if (c.gazetteer) continue;
    const slug = slugify(c.query);
    if (slug !== '' && !slugs.includes(slug)) {
      slugs.push(slug);
      slugKeys.push(c.key);
    }
    if (lexicalArms && !WHITESPACE.test(c.query) && c.query.length >= 3 && UPPER_FIRST.test(c.query)) {
      if (!surnames.includes(lower)) {
        surnames.push(lower);
        surnameKeys.push(c.key);
      }
    }
  }
  if (strongKeys.length === 0 && weakKeys.length === 0) return [];

  const sources = scopedSources(index, opts.scope);
  if (sources.length === 0) return [];
  const posOf = new Map<string, number>();
  for (const s of sources) posOf.set(s.src.id, s.pos);

  const pointers = new Map<PageRecord, Pointer>();
  const matchedKeys = opts.matchedKeys;
  const add = (rec: PageRecord, arm: MatchArm, matchedKey: string): void => {
    matchedKeys?.add(matchedKey);
    if (!pointers.has(rec)) pointers.set(rec, { rec, arm, matchedKey, sourcePos: posOf.get(rec.sourceId) as number });
  };

  // Alias, strong keys: unique within each source.
  for (const { src } of sources) {
    for (const key of strongKeys) {
      const only = single(src.aliasPages(key), visible);
      if (only) add(only, 'alias', key);
    }
  }
  // Alias, weak keys: unique across the whole scope.
  for (const key of weakKeys) {
    let only: PageRecord | null = null;
    let n = 0;
    for (const { src } of sources) {
      for (const rec of src.aliasPages(key)) {
        if (!visible(rec)) continue;
        only = rec;
        if (++n > 1) break;
      }
      if (n > 1) break;
    }
    if (n === 1 && only) add(only, 'alias', key);
  }

  // Title, then slug-suffix (pages whose lower title is a title-list entry are titles).
  const claimed = new Set<PageRecord>();
  for (const { src } of sources) {
    for (let t = 0; t < titles.length; t++) {
      for (const rec of src.titlePages(titles[t])) {
        if (!visible(rec)) continue;
        claimed.add(rec);
        add(rec, 'title', titleKeys[t]);
      }
    }
  }
  for (const { src } of sources) {
    for (let t = 0; t < slugs.length; t++) {
      for (const rec of src.tailPages(slugs[t])) {
        if (!visible(rec) || titleKeyOf.has(rec.lowerTitle)) continue;
        claimed.add(rec);
        add(rec, 'slug-suffix', slugKeys[t]);
      }
    }
  }
  // Title-surname: exactly one person page in scope ends with the token, not claimed above.
  for (let t = 0; t < surnames.length; t++) {
    const token = surnames[t];
    const key = surnameKeys[t];
    let only: PageRecord | null = null;
    let n = 0;
    for (const { src } of sources) {
      for (const rec of src.surnamePages(token)) {
        if (!visible(rec)) continue;
        only = rec;
        if (++n > 1) break;
      }
      if (n > 1) break;
    }
    if (n === 1 && only && !claimed.has(only)) add(only, 'title-surname', key);
  }

  // CJK title: a CJK weak key naming exactly one page by lower title or slug.
  if (lexicalArms) {
    const resolvedKeys = new Set<string>();
    for (const p of pointers.values()) resolvedKeys.add(p.matchedKey);
    for (const key of weakKeys) {
      if (resolvedKeys.has(key) || !isAllCjk(key)) continue;
      let only: PageRecord | null = null;
      let n = 0;
      const consider = (rec: PageRecord): void => {
        if (!visible(rec) || rec === only) return;
        only = rec;
        n++;
      };
      for (const { src } of sources) {
        for (const rec of src.titlePages(key)) consider(rec);
        for (const rec of src.tailPages(key)) if (rec.slug === key && rec.lowerTitle !== key) consider(rec);
        if (n > 1) break;
      }
      if (n === 1 && only) {
        add(only, 'cjk-title', key);
        resolvedKeys.add(key);
      }
    }
  }
  return [...pointers.values()];
}

/** The only visible item, or null when there are none or several. */
function single(items: Iterable<PageRecord>, visible: (rec: PageRecord) => boolean): PageRecord | null {
  let only: PageRecord | null = null;
  for (const rec of items) {
    if (!visible(rec)) continue;
    if (only) return null;
    only = rec;
  }
  return only;
}
