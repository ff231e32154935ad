// Every page operation × every caller × every kind of page, through every surface a caller has
// (docs/security.md): a page hidden from a remote caller answers exactly as an absent one, word
// for word; no remote write or delete changes it; a remote read → edit → write keeps what the
// caller could not see; the owner gets the normal results. One home and one in-process serve
// for the whole file; the pages are put back before each case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerCaller } from '../../../src/caller.js';
import { deletePage, listPages, putPage } from '../../../src/ops/page-ops.js';
import { hostedBrain } from '../../../src/serve/hosted-brain.js';
import { tempDir } from '../../support/cli.js';
import { openCliSession, type CliSession } from '../../support/cli-session.js';
import {
  absentIn,
  asIfAbout,
  BOUND,
  hiddenFrom,
  PRIVATE_FACT_MARK,
  readsBound,
  secretsOf,
  STORED,
  TAKES_MARK,
  TARGETS,
  visibleTo,
  type CallerName,
  type Target,
} from './permission-matrix-pages.js';
import { inProcessCliSurface, mcpSurface, runInProcess, serveSocketSurface, type Answer, type Surface } from './permission-matrix-surfaces.js';

const home = tempDir('bs-permission-matrix-');
let cli: CliSession;
const opened = new Map<string, Surface>();
const SURFACES: { name: string; callers: readonly CallerName[]; open(): Promise<Surface> | Surface }[] = [
  { name: 'the CLI in this process', callers: ['owner', 'granted', 'ungranted', 'elsewhere'], open: () => inProcessCliSurface(home.path) },
  { name: 'a real MCP client', callers: ['granted', 'ungranted', 'elsewhere'], open: () => mcpSurface(home.path) },
  { name: 'the CLI through the serve socket', callers: ['owner', 'granted', 'ungranted', 'elsewhere'], open: () => serveSocketSurface(cli) },
];

const brain = () => hostedBrain(home.path)!.brain;

/** Puts every page back as stored at the start, and deletes whatever a case created. */
async function resetPages(): Promise<void> {
  for (const t of STORED) await putPage(brain(), ownerCaller(t.source), t.slug, t.markdown);
  for (const p of await listPages(brain(), ownerCaller(), null)) {
    if (!STORED.some((t) => t.source === p.source_id && t.slug === p.slug)) await deletePage(brain(), ownerCaller(p.source_id), p.source_id, p.slug);
  }
}

/** What the owner reads of a page: `page get` output, stdout and stderr, compared byte for byte. */
const ownerRead = (source: string, slug: string) => runInProcess(home.path, ['--source', source, 'page', 'get', slug]);

const snapshot = async (): Promise<Map<Target, unknown>> => new Map(await Promise.all(STORED.map(async (t) => [t, await ownerRead(t.source, t.slug)] as const)));

/** Every stored page but `except` reads for the owner exactly as before. */
async function expectUnchanged(before: Map<Target, unknown>, except: Target | null = null): Promise<void> {
  for (const [t, read] of before) if (t !== except) expect(await ownerRead(t.source, t.slug), `${t.name} page`).toEqual(read);
}

/** A remote answer never shows a hidden page's words, nor the takes and private facts of any page. */
function expectNothingHidden(a: Answer, c: CallerName): void {
  for (const t of STORED) for (const secret of secretsOf(t, c)) expect(a.text, `${t.name} page`).not.toContain(secret);
}

const slugsOf = (a: Answer, key: 'pages' | 'entities'): string[] => ((a.json?.[key] ?? []) as { slug: string }[]).map((p) => p.slug);
const statusOf = (a: Answer): unknown => a.json?.status;
const ownerDeletes = (t: Target) => deletePage(brain(), ownerCaller(t.source), t.source, t.slug);

let sessions = 0;

type Case = (s: Surface, c: CallerName, t: Target) => Promise<void>;

const CASES: Record<string, Case> = {
  async get(s, c, t) {
    const a = await s.getPage(c, t.source, t.slug);
    if (c !== 'owner') expectNothingHidden(a, c);
    if (hiddenFrom(c, t)) {
      const absent = absentIn(t.source);
      expect(a.raw).toEqual(asIfAbout((await s.getPage(c, absent.source, absent.slug)).raw, absent, t));
    }
    if (!visibleTo(c, t)) {
      expect(a.ok).toBe(false);
      expect(a.text).toContain(`page_not_found: no page ${t.source}:${t.slug}`);
      return;
    }
    expect(a.ok, a.text).toBe(true);
    expect(a.text).toContain(t.title);
    if (c === 'owner' && t.markdown!.includes(TAKES_MARK)) expect(a.text).toContain(TAKES_MARK);
  },

  async list(s, c, t) {
    const a = await s.listPages(c);
    if (c !== 'owner') expectNothingHidden(a, c);
    const listed = ((a.json?.pages ?? []) as { source_id: string; slug: string }[]).map((p) => `${p.source_id}:${p.slug}`);
    expect(listed.sort()).toEqual(STORED.filter((v) => visibleTo(c, v)).map((v) => `${v.source}:${v.slug}`).sort());
    if (hiddenFrom(c, t)) {
      // The same list as when the page does not exist at all.
      await ownerDeletes(t);
      expect(a.raw).toEqual((await s.listPages(c)).raw);
    }
  },

  async put(s, c, t) {
    const before = await snapshot();
    if (c === 'owner') {
      const a = await s.putPage(c, t.slug, `---\ntitle: ${t.title}\n---\nRewritten by the owner.\n`);
      expect(a.ok, a.text).toBe(true);
      expect(statusOf(a)).toBe(t.source === BOUND && t.markdown !== null ? 'updated' : 'created');
      expect((await ownerRead(BOUND, t.slug)).stdout).toContain('Rewritten by the owner.');
      return expectUnchanged(before, t.source === BOUND ? t : null);
    }
    if (visibleTo(c, t) && t.source === BOUND) {
      // Read → edit → write: what the caller never saw is kept.
      const read = await s.getPage(c, t.source, t.slug);
      expect(read.markdown).toBeDefined();
      expect(statusOf(await s.putPage(c, t.slug, read.markdown!))).toBe('unchanged');
      const edited = read.markdown!.replace(/^(always_load|core_priority):.*\n/gm, '').replace('works on', 'now works on');
      const a = await s.putPage(c, t.slug, edited);
      expectNothingHidden(a, c);
      expect(statusOf(a), a.text).toBe('updated');
      const saved = (await ownerRead(t.source, t.slug)).stdout;
      for (const kept of ['now works on', TAKES_MARK, PRIVATE_FACT_MARK]) expect(saved).toContain(kept);
      if (t.name === 'core') expect(saved).toMatch(/^always_load: true\ncore_priority: 7$/m);
      return expectUnchanged(before, t);
    }
    // Hidden, absent or in another source: the write lands in the bound source, as on a free slug.
    const clobber = '---\ntitle: Clobbered\n---\nWritten over by a remote caller.\n';
    const a = await s.putPage(c, t.slug, clobber);
    expectNothingHidden(a, c);
    expect(a.ok, a.text).toBe(true);
    expect(statusOf(a)).toBe('created');
    if (t.name !== 'absent') {
      const absent = absentIn(BOUND);
      expect(a.raw).toEqual(asIfAbout((await s.putPage(c, absent.slug, clobber)).raw, absent, t));
    }
    await expectUnchanged(before);
  },

  async delete(s, c, t) {
    const before = await snapshot();
    const a = await s.deletePage(c, t.source, t.slug);
    if (c !== 'owner') expectNothingHidden(a, c);
    if (hiddenFrom(c, t)) {
      const absent = absentIn(t.source);
      expect(a.raw).toEqual(asIfAbout((await s.deletePage(c, absent.source, absent.slug)).raw, absent, t));
    }
    if (t.markdown === null || hiddenFrom(c, t)) {
      expect(a.ok).toBe(false);
      expect(a.text).toContain(t.source === BOUND || c === 'owner' ? `page_not_found: no page ${t.source}:${t.slug}` : 'source_not_writable');
      return expectUnchanged(before);
    }
    if (c === 'owner' || t.name === 'public') {
      expect(a.ok, a.text).toBe(true);
      expect((await ownerRead(t.source, t.slug)).stderr).toContain('page_not_found');
      return expectUnchanged(before, t);
    }
    // Only the owner takes a page out of core; a remote caller deletes only in its bound source.
    expect(a.ok).toBe(false);
    expect(a.text).toContain(t.name === 'core' ? 'only the brain owner can delete a core page' : 'source_not_writable');
    await expectUnchanged(before);
  },

  async volunteer(s, c, t) {
    const session = `matrix-${++sessions}`;
    const about = (x: Target) => `user: what do you know about ${x.title}?\n`;
    const a = await s.volunteer(c, about(t), session);
    if (c !== 'owner') expectNothingHidden(a, c);
    // The owner is volunteered pages of its own source; a remote caller those it may read.
    const expected = visibleTo(c, t) && (c !== 'owner' || t.source === BOUND);
    expect(slugsOf(a, 'pages'), a.text).toEqual(expected ? [t.slug] : []);
    if (hiddenFrom(c, t)) {
      const absent = absentIn(t.source);
      expect(a.raw).toEqual(asIfAbout((await s.volunteer(c, about(absent), session)).raw, absent, t));
    }
    // Logged (counted in the statistics) exactly when volunteered: a hidden page never is.
    const logged = await cli.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM context_volunteer_events WHERE source_id = '${t.source}' AND slug = '${t.slug}' AND session_id = '${session}'`,
    );
    expect(logged).toEqual([{ n: expected ? 1 : 0 }]);
  },

  async context_pack(s, c, t) {
    const a = await s.contextPack(c, [t.title]);
    if (c !== 'owner') expectNothingHidden(a, c);
    // Private pages never get a card, whoever asks; core is the bound source's alone.
    const card = visibleTo(c, t) && !t.private;
    expect(slugsOf(a, 'entities'), a.text).toEqual(card ? [t.slug] : []);
    expect(a.json?.unresolved).toEqual(card ? [] : [t.title]);
    // The core block is the bound source's, for a caller that may read it.
    if (readsBound(c)) expect(String(a.json?.core)).toContain('Quinn Core');
    else expect(String(a.json?.core ?? '')).not.toContain('Quinn Core');
    expect(String(a.json?.core)).not.toContain('Olive Other');
    if (hiddenFrom(c, t)) {
      const absent = absentIn(t.source);
      expect(a.raw).toEqual(asIfAbout((await s.contextPack(c, [absent.title])).raw, absent, t));
      // And the same pack as when the page does not exist at all.
      await ownerDeletes(t);
      expect(a.raw).toEqual((await s.contextPack(c, [t.title])).raw);
    }
  },
};

beforeAll(async () => {
  cli = await openCliSession(home.path);
  expect((await cli.run(['config', 'set', 'memory.core.enabled', 'true'])).code).toBe(0);
  await resetPages();
  for (const s of SURFACES) opened.set(s.name, await s.open());
});

afterAll(async () => {
  for (const s of opened.values()) await s.close();
  await cli?.close();
  home.cleanup();
});

for (const surface of SURFACES) {
  describe(`permission matrix through ${surface.name}`, () => {
    for (const [op, run] of Object.entries(CASES)) {
      describe(op, () => {
        for (const c of surface.callers) {
          for (const t of TARGETS) {
            const what = hiddenFrom(c, t) ? 'hidden' : t.markdown === null ? 'absent' : 'visible';
            it(`${c} caller, ${t.name} page (${what})`, async () => {
              await resetPages();
              await run(opened.get(surface.name)!, c, t);
            });
          }
        }
      });
    }
  });
}
