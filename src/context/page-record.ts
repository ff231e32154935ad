/** Flags of a page record. */
export const PERSON = 1;
export const PRIVATE = 2;

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

  /** The packed person/private flags (what a snapshot stores to rebuild the record). */
  get flagBits(): number {
    return this.flags;
  }

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

const tailOf = (slug: string): string => slug.slice(slug.lastIndexOf('/') + 1);

function surnameOf(lowerTitle: string): string | null {
  const at = lowerTitle.lastIndexOf(' ');
  return at < 0 || at === lowerTitle.length - 1 ? null : lowerTitle.slice(at + 1);
}

/** Observer of record changes within one source (the gazetteer keeps its automaton this way). */
export interface SourceListener {
  added(rec: PageRecord): void;
  removed(rec: PageRecord): void;
}
