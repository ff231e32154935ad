import type { Page } from '../pages/page.js';
import { aliasEntries } from './aliases.js';
import { bucketItems, bucketWith, bucketWithout, type Bucket } from './bucket.js';
import { Gazetteer } from './gazetteer.js';
import { normalizeAlias } from './strings.js';
import { synopsisOf } from './synopsis.js';

const PERSON = 1;
const PRIVATE = 2;
const NO_ALIASES: readonly string[] = Object.freeze([]);

/** What resolution needs of one live page, computed once at upsert (no markdown on the hot path). */
export class PageRecord {
  constructor(
    readonly sourceId: string,
    readonly slug: string,
    readonly title: string,
    readonly lowerTitle: string,
    /** Alias surfaces as declared (trimmed, distinct); keys are their normalizeAlias. */
    readonly aliases: readonly string[],
    readonly synopsis: string,
    private readonly flags: number,
  ) {}

  get person(): boolean {
    return (this.flags & PERSON) !== 0;
  }

  get private(): boolean {
    return (this.flags & PRIVATE) !== 0;
  }

  /** The slug after its last `/` (the whole slug when it has none). */
  get tail(): string {
    return tailOf(this.slug);
  }

  /** The surname token of a person page: the last space-separated token of the lower title. */
  get surname(): string | null {
    return this.person ? surnameOf(this.lowerTitle) : null;
  }
}

export const tailOf = (slug: string): string => slug.slice(slug.lastIndexOf('/') + 1);

function surnameOf(lowerTitle: string): string | null {
  const at = lowerTitle.lastIndexOf(' ');
  return at < 0 || at === lowerTitle.length - 1 ? null : lowerTitle.slice(at + 1);
}

function aliasKeysOf(rec: PageRecord): string[] {
  const keys: string[] = [];
  for (const a of rec.aliases) {
    const key = normalizeAlias(a);
    if (key !== '' && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** Observer of record changes within one source (the gazetteer keeps its automaton this way). */
export interface SourceListener {
  added(rec: PageRecord): void;
  removed(rec: PageRecord): void;
}

/** Everything one lookup string names in a source, per arm. Absent arms stay undefined. */
export class KeyEntry {
  /** Pages declaring this alias key. */
  alias: Bucket<PageRecord> | undefined = undefined;
  /** Pages whose lower-cased title is this text. */
  title: Bucket<PageRecord> | undefined = undefined;
  /** Pages whose slug tail is this text (exact unprefixed slugs, suffixes, CJK slugs). */
  tail: Bucket<PageRecord> | undefined = undefined;
  /** Person pages whose surname token is this text. */
  surname: Bucket<PageRecord> | undefined = undefined;

  get empty(): boolean {
    return this.alias === undefined && this.title === undefined && this.tail === undefined && this.surname === undefined;
  }
}

type Arm = 'alias' | 'title' | 'tail' | 'surname';

const RECENT_LIMIT = 4096;

/**
 * The lookup maps of one source: one map from lookup text to its KeyEntry, so a candidate whose
 * key, lower-cased query and slug coincide (`Galewright`) costs a single probe. A small memo of
 * recent lookups (cleared on any change) keeps a rolling window from re-probing the big map
 * for the turns it already saw, so the per-turn cost does not grow with the brain.
 */
export class SourceIndex {
  readonly pages = new Map<string, PageRecord>();
  private readonly keys = new Map<string, KeyEntry>();
  private readonly recent = new Map<string, KeyEntry | null>();
  listener: SourceListener | null = null;

  constructor(readonly id: string) {}

  /** Number of distinct lookup texts (for benchmarks). */
  get keyCount(): number {
    return this.keys.size;
  }

  private put(arm: Arm, text: string, rec: PageRecord): void {
    let e = this.keys.get(text);
    if (!e) {
      e = new KeyEntry();
      this.keys.set(text, e);
    }
    e[arm] = bucketWith(e[arm], rec);
  }

  private drop(arm: Arm, text: string, rec: PageRecord): void {
    const e = this.keys.get(text);
    if (!e) return;
    e[arm] = bucketWithout(e[arm], rec);
    if (e.empty) this.keys.delete(text);
  }

  private changed(): void {
    if (this.recent.size > 0) this.recent.clear();
  }

  add(rec: PageRecord): void {
    this.changed();
    this.pages.set(rec.slug, rec);
    for (const key of aliasKeysOf(rec)) this.put('alias', key, rec);
    this.put('title', rec.lowerTitle, rec);
    this.put('tail', rec.tail, rec);
    const surname = rec.surname;
    if (surname !== null) this.put('surname', surname, rec);
    this.listener?.added(rec);
  }

  delete(rec: PageRecord): void {
    this.changed();
    this.pages.delete(rec.slug);
    for (const key of aliasKeysOf(rec)) this.drop('alias', key, rec);
    this.drop('title', rec.lowerTitle, rec);
    this.drop('tail', rec.tail, rec);
    const surname = rec.surname;
    if (surname !== null) this.drop('surname', surname, rec);
    this.listener?.removed(rec);
  }

  /** The entry of a lookup text, through the recent-lookup memo. */
  lookup(text: string): KeyEntry | undefined {
    const memo = this.recent.get(text);
    if (memo !== undefined) return memo ?? undefined;
    const e = this.keys.get(text);
    if (this.recent.size >= RECENT_LIMIT) this.recent.clear();
    this.recent.set(text, e ?? null);
    return e;
  }

  aliasPages(key: string): Iterable<PageRecord> {
    return bucketItems(this.lookup(key)?.alias);
  }

  titlePages(lowerTitle: string): Iterable<PageRecord> {
    return bucketItems(this.lookup(lowerTitle)?.title);
  }

  tailPages(tail: string): Iterable<PageRecord> {
    return bucketItems(this.lookup(tail)?.tail);
  }

  surnamePages(token: string): Iterable<PageRecord> {
    return bucketItems(this.lookup(token)?.surname);
  }
}

/**
 * A copy of `s` that shares no storage with a larger string: substrings (titles sliced out of
 * the markdown by the YAML parser, synopses cut from a body) would otherwise keep the whole
 * source text alive for as long as the index holds the page.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** Builds the record of a page (title and type as stored; flags from type and visibility). */
export function recordOf(page: Page, sourceId: string = page.source_id): PageRecord {
  const title = detach(page.title);
  const lower = title.toLowerCase();
  const aliases = aliasEntries(page.frontmatter?.aliases);
  const distinct = aliases.length === 0 ? NO_ALIASES : [...new Set(aliases)].map(detach);
  const flags = (page.type === 'person' ? PERSON : 0) | (page.frontmatter?.visibility === 'private' ? PRIVATE : 0);
  const slug = detach(page.slug);
  return new PageRecord(sourceId, slug, title, lower === title ? title : lower, distinct, detach(synopsisOf(page)), flags);
}

/**
 * The in-memory page index (spec §1, §5): live pages per source with O(1) lookups for alias
 * keys, lower titles, slug tails and surnames. Maintained incrementally from page events;
 * an upsert replaces the page's old keys.
 */
export interface PageIndexOptions {
  /** Maintain the gazetteer automaton (titles and aliases of all pages). Default true. */
  gazetteer?: boolean;
}

export class PageIndex {
  private readonly bySource = new Map<string, SourceIndex>();
  private count = 0;
  private revision = 0;
  /** Title/alias automaton over every live page, or null when built without it. */
  readonly gazetteer: Gazetteer | null;

  constructor(options: PageIndexOptions = {}) {
    this.gazetteer = options.gazetteer === false ? null : new Gazetteer();
  }

  /** Bumped on every change: lets callers cache per-turn work against one index state. */
  get version(): number {
    return this.revision;
  }

  /** Number of live pages over all sources. */
  get size(): number {
    return this.count;
  }

  /** Source ids holding at least one page, in creation order. */
  sourceIds(): string[] {
    return [...this.bySource.keys()];
  }

  source(id: string): SourceIndex | undefined {
    return this.bySource.get(id);
  }

  get(sourceId: string, slug: string): PageRecord | undefined {
    return this.bySource.get(sourceId)?.pages.get(slug);
  }

  /** Adds or replaces a live page. Pages without a usable title or slug are ignored. */
  upsert(page: Page): void {
    if (typeof page?.slug !== 'string' || page.slug === '' || typeof page.title !== 'string' || page.title === '') return;
    let src = this.bySource.get(page.source_id);
    if (!src) {
      src = new SourceIndex(page.source_id);
      this.bySource.set(src.id, src);
      src.listener = this.gazetteer;
    }
    this.revision++;
    const old = src.pages.get(page.slug);
    if (old) src.delete(old);
    else this.count++;
    // Interned: every record of a source shares the source's id string.
    src.add(recordOf(page, src.id));
  }

  /** Removes a page (soft delete); true when it was live. */
  remove(sourceId: string, slug: string): boolean {
    const src = this.bySource.get(sourceId);
    const rec = src?.pages.get(slug);
    if (!src || !rec) return false;
    this.revision++;
    src.delete(rec);
    this.count--;
    return true;
  }
}
