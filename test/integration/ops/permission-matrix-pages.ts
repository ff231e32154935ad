// The pages, callers and visibility rule of the permission matrix (docs/security.md): who may
// see which page, and the page every hidden one is compared with (an absent one).

export const BOUND = 'default';
export const OTHER = 'team';

/** Words that only the hidden parts of a page contain: a remote answer never shows them. */
export const TAKES_MARK = 'takes-mark-never-remote';
export const PRIVATE_FACT_MARK = 'private-fact-mark-never-remote';

const TAKES = `<!--- gbrain:takes:begin -->\n- owner: ${TAKES_MARK}\n<!--- gbrain:takes:end -->`;
const FACTS = [
  '<!--- gbrain:facts:begin -->',
  '| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |',
  '|---|---|---|---|---|---|---|---|---|---|',
  `| 1 | ${PRIVATE_FACT_MARK} | fact | 1.0 | private | medium | 2026-01-01 |  | owner |  |`,
  '| 2 | works at Acme | fact | 1.0 | world | medium | 2026-01-01 |  | owner |  |',
  '<!--- gbrain:facts:end -->',
].join('\n');

export type TargetName = 'public' | 'private' | 'core' | 'other' | 'absent';

export interface Target {
  name: TargetName;
  source: string;
  slug: string;
  title: string;
  /** The stored markdown; null for the page that never exists. */
  markdown: string | null;
  private: boolean;
}

const page = (title: string, front: string, body: string): string => `---\ntitle: ${title}\ntype: person\n${front}---\n${body}\n`;

export const TARGETS: readonly Target[] = [
  {
    name: 'public',
    source: BOUND,
    slug: 'people/pat-public',
    title: 'Pat Public',
    markdown: page('Pat Public', '', `Pat Public works on the public lab.\n\n${TAKES}\n\n${FACTS}`),
    private: false,
  },
  {
    name: 'private',
    source: BOUND,
    slug: 'people/priya-private',
    title: 'Priya Private',
    markdown: page('Priya Private', 'visibility: private\n', 'Priya Private keeps the secret-private-body.'),
    private: true,
  },
  {
    name: 'core',
    source: BOUND,
    slug: 'people/quinn-core',
    title: 'Quinn Core',
    markdown: page('Quinn Core', 'always_load: true\ncore_priority: 7\n', `Quinn Core works on the core desk.\n\n${TAKES}\n\n${FACTS}`),
    private: false,
  },
  {
    // Marked core in its own source too: a session of the bound source never gets it as core.
    name: 'other',
    source: OTHER,
    slug: 'people/olive-other',
    title: 'Olive Other',
    markdown: page('Olive Other', 'always_load: true\n', 'Olive Other keeps the secret-other-body.'),
    private: false,
  },
  { name: 'absent', source: BOUND, slug: 'people/abe-absent', title: 'Abe Absent', markdown: null, private: false },
];

export const STORED = TARGETS.filter((t): t is Target & { markdown: string } => t.markdown !== null);

/** The absent page a hidden target is compared with: same source, a slug and name nothing has. */
export const absentIn = (source: string): Target => ({ ...TARGETS.find((t) => t.name === 'absent')!, source });

export type CallerName = 'owner' | 'granted' | 'ungranted' | 'elsewhere';

/**
 * Global CLI flags of each caller: all bound to the default source; `granted` may read the other
 * one too (its grant names both); `elsewhere` may read only the other one (its bound source is
 * write-only to it).
 */
export const CALLER_FLAGS: Record<CallerName, readonly string[]> = {
  owner: [],
  granted: ['--as', 'remote', '--grant', `${BOUND},${OTHER}`],
  ungranted: ['--as', 'remote'],
  elsewhere: ['--as', 'remote', '--grant', OTHER],
};

/** The read grant an MCP server of each remote caller is started with. */
export const MCP_GRANT: Record<Exclude<CallerName, 'owner'>, string[] | undefined> = {
  granted: [BOUND, OTHER],
  ungranted: undefined,
  elsewhere: [OTHER],
};

/** Sources each remote caller may read. */
const READS: Record<Exclude<CallerName, 'owner'>, readonly string[]> = { granted: [BOUND, OTHER], ungranted: [BOUND], elsewhere: [OTHER] };

/** A stored page the caller may not see: private (remote callers), or in a source it may not read. */
export const hiddenFrom = (caller: CallerName, t: Target): boolean =>
  t.markdown !== null && caller !== 'owner' && (t.private || !READS[caller].includes(t.source));

/** Whether the caller may read the bound source (the owner and every caller whose grant names it). */
export const readsBound = (caller: CallerName): boolean => caller === 'owner' || READS[caller].includes(BOUND);

/** Whether the caller sees the page at all (a stored page not hidden from it). */
export const visibleTo = (caller: CallerName, t: Target): boolean => t.markdown !== null && !hiddenFrom(caller, t);

/** An answer about `absent`, rewritten as if it had been about `t` (its slug and name put in). */
export function asIfAbout(answer: unknown, absent: Target, t: Target): unknown {
  const text = JSON.stringify(answer).replaceAll(absent.slug, t.slug).replaceAll(absent.title, t.title);
  return JSON.parse(text) as unknown;
}

/** The hidden words of every page: none may appear in an answer to a caller who cannot see them. */
export function secretsOf(t: Target, caller: CallerName): string[] {
  if (caller === 'owner' || t.markdown === null) return [];
  const own = hiddenFrom(caller, t) ? (t.markdown.match(/secret-[a-z-]+/) ?? []) : [];
  return [...own, TAKES_MARK, PRIVATE_FACT_MARK];
}
