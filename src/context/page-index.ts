import type { Page } from '../pages/page.js';
import { aliasEntries } from './aliases.js';
import { bucketAdd, bucketItems, bucketRemove, type Bucket } from './bucket.js';
import { Gazetteer } from './gazetteer.js';
import { PageRecord, PERSON, PRIVATE, type SourceListener } from './page-record.js';
import { normalizeAlias } from './strings.js';
import { synopsisOf } from './synopsis.js';

export { PageRecord, type SourceListener } from './page-record.js';

const NO_ALIASES: readonly string[] = Object.freeze([]);

function aliasKeysOf(rec: PageRecord): string[] {
  const keys: string[] = [];
  for (const a of rec.aliases) {
    const key = normalizeAlias(a);
    if (key !== '' && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

type Arm = 'alias' | 'title' | 'tail' | 'surname';
type ArmMap = Map<string, Bucket<PageRecord>>;

const RECENT_LIMIT = 2048;

/**
 * The lookup maps of one source. A small memo of recent lookups per arm (cleared on any
 * change) keeps a rolling window from re-probing the large maps for the turns it already saw,
 * so the per-turn cost does not grow with the brain.
 */
export class SourceIndex {
  readonly pages = new Map<string, PageRecord>();
  /** Alias key → pages declaring it. */
  private readonly alias: ArmMap = new Map();
  /** Lower-cased title → pages. */
  private readonly title: ArmMap = new Map();
  /** Slug tail → pages (covers exact unprefixed slugs, suffix matches and CJK slugs). */
  private readonly tail: ArmMap = new Map();
  /** Surname token → person pages. */
  private readonly surname: ArmMap = new Map();
  /** Per arm: text → its bucket, or null for a miss. */
  private readonly recent: Record<Arm, Map<string, Bucket<PageRecord> | null>> = {
    alias: new Map(),
    title: new Map(),
    tail: new Map(),
    surname: new Map(),
  };
  private memoized = false;
  listener: SourceListener | null = null;

  constructor(readonly id: string) {}

  private changed(): void {
    if (!this.memoized) return;
    this.memoized = false;
    for (const m of Object.values(this.recent)) m.clear();
  }

  add(rec: PageRecord): void {
    this.changed();
    this.pages.set(rec.slug, rec);
    for (const key of aliasKeysOf(rec)) bucketAdd(this.alias, key, rec);
    bucketAdd(this.title, rec.lowerTitle, rec);
    bucketAdd(this.tail, rec.tail, rec);
    const surname = rec.surname;
    if (surname !== null) bucketAdd(this.surname, surname, rec);
    this.listener?.added(rec);
  }

  delete(rec: PageRecord): void {
    this.changed();
    this.pages.delete(rec.slug);
    for (const key of aliasKeysOf(rec)) bucketRemove(this.alias, key, rec);
    bucketRemove(this.title, rec.lowerTitle, rec);
    bucketRemove(this.tail, rec.tail, rec);
    const surname = rec.surname;
    if (surname !== null) bucketRemove(this.surname, surname, rec);
    this.listener?.removed(rec);
  }

  /** One arm's bucket for a text, through the recent-lookup memo. */
  private find(arm: Arm, text: string): Iterable<PageRecord> {
    const memo = this.recent[arm];
    let b = memo.get(text);
    if (b === undefined) {
      b = this[arm].get(text) ?? null;
      if (memo.size >= RECENT_LIMIT) memo.clear();
      memo.set(text, b);
      this.memoized = true;
    }
    return bucketItems(b ?? undefined);
  }

  aliasPages(key: string): Iterable<PageRecord> {
    return this.find('alias', key);
  }

  titlePages(lowerTitle: string): Iterable<PageRecord> {
    return this.find('title', lowerTitle);
  }

  tailPages(tail: string): Iterable<PageRecord> {
    return this.find('tail', tail);
  }

  surnamePages(token: string): Iterable<PageRecord> {
    return this.find('surname', token);
  }
}

/**
 * A copy of `s` that shares no storage with a larger string: substrings (titles sliced out of
 * the markdown by the YAML parser, synopses cut from a body) would otherwise keep the whole
 * source text alive for as long as the index holds the page.
 */
function detach(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** Builds the record of a page (title and type as stored; flags from type and visibility). */
function recordOf(page: Page, sourceId: string = page.source_id): PageRecord {
  const title = detach(page.title);
  const lower = title.toLowerCase();
  const aliases = aliasEntries(page.frontmatter?.aliases);
  const distinct = aliases.length === 0 ? NO_ALIASES : [...new Set(aliases)].map(detach);
  const flags = (page.type === 'person' ? PERSON : 0) | (page.frontmatter?.visibility === 'private' ? PRIVATE : 0);
  const slug = detach(page.slug);
  return new PageRecord(sourceId, slug, title, lower === title ? title : lower, distinct, detach(synopsisOf(page)), flags);
}

/**
 * The in-memory page index: live pages per source with O(1) lookups for alias
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
    const src = this.sourceFor(page.source_id);
    // Interned: every record of a source shares the source's id string.
    this.put(src, recordOf(page, src.id));
  }

  /** Adds or replaces a record built elsewhere (the page-index snapshot of the cold path). */
  upsertRecord(rec: PageRecord): void {
    this.put(this.sourceFor(rec.sourceId), rec);
  }

  private sourceFor(id: string): SourceIndex {
    let src = this.bySource.get(id);
    if (!src) {
      src = new SourceIndex(id);
      this.bySource.set(src.id, src);
      src.listener = this.gazetteer;
    }
    return src;
  }

  private put(src: SourceIndex, rec: PageRecord): void {
    this.revision++;
    const old = src.pages.get(rec.slug);
    if (old) src.delete(old);
    else this.count++;
    src.add(rec);
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
