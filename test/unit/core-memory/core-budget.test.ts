import { describe, expect, it } from 'vitest';
import { applyCoreWrite, evaluateCoreBudget, measureCore } from '../../../src/core-memory/core-budget.js';
import { budgetSuggestion, largestVisiblePages } from '../../../src/core-memory/core-budget-error.js';
import { buildCoreSection } from '../../../src/core-memory/core-section.js';
import { CoreBudgetExceededError } from '../../../src/core-memory/errors.js';
import { appendFactRow, renderFactsFence } from '../../../src/pages/facts-fence.js';
import type { FactRow } from '../../../src/pages/facts-table.js';
import { corePage, TODAY } from './fixtures.js';

const factRow = (row: number, claim: string, over: Partial<FactRow> = {}): FactRow => ({
  row,
  claim,
  active: true,
  kind: 'preference',
  confidence: '1.0',
  visibility: 'world',
  notability: 'medium',
  valid_from: TODAY,
  valid_until: '',
  source: 'chat',
  context: '',
  ...over,
});

const rowFields = (claim: string, over: Partial<FactRow> = {}): Omit<FactRow, 'row'> => {
  const { row: _row, ...fields } = factRow(0, claim, over);
  return fields;
};

const textOfSection = (headingLength: number, sectionLength: number) => 'x'.repeat(sectionLength - headingLength - 2);

describe('budget size and count', () => {
  it('size is the brain-wide block; count includes private and quarantined live core pages', () => {
    const pages = [
      corePage('a', 'aaa', { always_load: true }, { title: 'A' }),
      corePage('p', 'private', { always_load: true, visibility: 'private' }),
      corePage('q', 'quarantined', { always_load: true, quarantine: true }),
      corePage('d', 'deleted', { always_load: true }, { deleted: true }),
      corePage('n', 'not core', {}),
    ];
    const m = measureCore(pages, TODAY);
    expect(m.chars).toBe('# Core memory\n\n## A (a)\n\naaa'.length);
    expect(m.count).toBe(3);
  });

  it('applyCoreWrite replaces, adds and deletes rows by (source, slug)', () => {
    const pages = [corePage('a', '1'), corePage('a', '2', { always_load: true }, { source_id: 'work' })];
    expect(applyCoreWrite(pages, { kind: 'upsert', page: corePage('a', '3') }).map((p) => `${p.source_id}:${p.compiled_truth}`)).toEqual([
      'work:2',
      'default:3',
    ]);
    expect(applyCoreWrite(pages, { kind: 'delete', source_id: 'work', slug: 'a' })).toHaveLength(1);
  });
});

describe('budget guard', () => {
  const big = (slug: string, n: number, fm: Record<string, unknown> = { always_load: true }) => corePage(slug, 'y'.repeat(n), fm, { title: 'T' });

  it('refuses growth past max_chars and names the spec example message exactly', () => {
    // prefs/habits renders 1253 chars; a page in an unreadable source brings the block to 1312.
    const habitsHeading = '## Habits (prefs/habits)';
    const hidden = corePage('w', textOfSection('## W (work:w)'.length, 42), { always_load: true }, { source_id: 'work', title: 'W' });
    const before = corePage('prefs/habits', 'short', { always_load: true }, { title: 'Habits' });
    const after = corePage('prefs/habits', textOfSection(habitsHeading.length, 1253), { always_load: true }, { title: 'Habits' });
    expect(buildCoreSection(after, TODAY).chars).toBe(1253);

    const decision = evaluateCoreBudget({
      pages: [before, hidden],
      write: { kind: 'upsert', page: after },
      maxChars: 500,
      today: TODAY,
      readable: ['default'],
    });
    expect(decision.refused).toBe(true);
    expect(decision.next.chars).toBe(1312);
    const error = decision.error!;
    expect(error).toBeInstanceOf(CoreBudgetExceededError);
    expect(`${error.code}: ${error.message}`).toBe(
      'core_budget_exceeded: core would be 1312 chars, 812 over memory.core.max_chars=500; largest core pages you can see: prefs/habits (1253). Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory.core.max_chars 6000 (see brainstream core status --json)',
    );
    expect(error.toEnvelope()).toEqual({
      error: 'core_budget_exceeded',
      message: error.message,
      suggestion:
        'Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory.core.max_chars 6000 (see brainstream core status --json)',
      reason: 'max_chars',
      projected_chars: 1312,
      current_chars: decision.current.chars,
      max_chars: 500,
      over_by: 812,
      page_count: 2,
      max_pages: 50,
      largest_pages: [{ source_id: 'default', slug: 'prefs/habits', chars: 1253 }],
    });
  });

  it('passes a write landing exactly on max_chars', () => {
    const page = big('a', 10);
    const size = measureCore([page], TODAY).chars;
    const d = evaluateCoreBudget({ pages: [], write: { kind: 'upsert', page }, maxChars: size, today: TODAY, readable: null });
    expect(d).toMatchObject({ checked: true, refused: false, next: { chars: size, count: 1 }, current: { chars: 0, count: 0 } });
    expect(evaluateCoreBudget({ pages: [], write: { kind: 'upsert', page }, maxChars: size - 1, today: TODAY, readable: null }).refused).toBe(true);
  });

  it('passes shrinking and size-neutral writes while over budget', () => {
    const pages = [big('a', 900), big('b', 900)];
    const shrink = evaluateCoreBudget({ pages, write: { kind: 'upsert', page: big('a', 800) }, maxChars: 500, today: TODAY, readable: null });
    expect(shrink).toMatchObject({ checked: true, refused: false });
    const neutral = evaluateCoreBudget({ pages, write: { kind: 'upsert', page: { ...big('a', 900), compiled_truth: 'z'.repeat(900) } }, maxChars: 500, today: TODAY, readable: null });
    expect(neutral.refused).toBe(false);
    const grow = evaluateCoreBudget({ pages, write: { kind: 'upsert', page: big('a', 901) }, maxChars: 500, today: TODAY, readable: null });
    expect(grow).toMatchObject({ refused: true, reason: 'max_chars' });
  });

  it('never checks non-core pages that stay non-core, nor deletes', () => {
    const pages = [big('a', 9000)];
    const plain = evaluateCoreBudget({ pages, write: { kind: 'upsert', page: big('n', 9000, {}) }, maxChars: 500, today: TODAY, readable: null });
    expect(plain).toMatchObject({ checked: false, refused: false });
    const del = evaluateCoreBudget({ pages, write: { kind: 'delete', source_id: 'default', slug: 'a' }, maxChars: 500, today: TODAY, readable: null });
    expect(del).toMatchObject({ checked: false, refused: false });
  });

  it('checks un-coring (a shrink, so it passes) and coring of a page', () => {
    const pages = [big('a', 100)];
    const uncore = evaluateCoreBudget({ pages, write: { kind: 'upsert', page: big('a', 100, {}) }, maxChars: 500, today: TODAY, readable: null });
    expect(uncore).toMatchObject({ checked: true, refused: false, next: { chars: 0, count: 0 } });
    const core = evaluateCoreBudget({ pages: [big('n', 1000, {})], write: { kind: 'upsert', page: big('n', 1000) }, maxChars: 500, today: TODAY, readable: null });
    expect(core).toMatchObject({ checked: true, refused: true });
  });

  it('refuses the 51st core page (reason max_pages), counting private ones, but not a 51st edit', () => {
    const pages = Array.from({ length: 50 }, (_, i) => corePage(`p${i}`, '', { always_load: true, visibility: 'private' }));
    const d = evaluateCoreBudget({ pages, write: { kind: 'upsert', page: corePage('new', 'x') }, maxChars: 6000, today: TODAY, readable: null });
    expect(d).toMatchObject({ refused: true, reason: 'max_pages', next: { count: 51 } });
    expect(d.error!.details).toMatchObject({ reason: 'max_pages', page_count: 51, max_pages: 50, over_by: 0 });
    expect(d.error!.message).toBe(
      'core would have 51 pages, 1 over the limit of 50 core pages, and be 30 chars (memory.core.max_chars=6000); largest core pages you can see: new (15). Move detail into a linked non-core page and keep a one-line pointer in a page that is already core, or ask the user to take a page out of core with brainstream core remove (see brainstream core status --json)',
    );

    const over = [...pages, corePage('p50', '', { always_load: true, visibility: 'private' })];
    const edit = evaluateCoreBudget({ pages: over, write: { kind: 'upsert', page: corePage('p0', 'edited', { always_load: true, visibility: 'private' }) }, maxChars: 6000, today: TODAY, readable: null });
    expect(edit.refused).toBe(false);
  });

  it('a fact row that does not render (private) cannot be refused, even on a core page already over budget', () => {
    const page = corePage('a', `${'x'.repeat(600)}\n\n## Facts\n\n${renderFactsFence([factRow(1, 'Likes tea')])}`);
    const withPrivate = appendFactRow(page.compiled_truth, rowFields('Salary is 100k', { visibility: 'private' })).compiled_truth;
    expect(withPrivate).toContain('Salary is 100k');
    const d = evaluateCoreBudget({ pages: [page], write: { kind: 'upsert', page: { ...page, compiled_truth: withPrivate } }, maxChars: 500, today: TODAY, readable: null });
    expect(d).toMatchObject({ checked: true, refused: false });
    expect(d.next.chars).toBe(d.current.chars);
    // The same row as `world` renders, so it grows core and is refused.
    const withWorld = appendFactRow(page.compiled_truth, rowFields('Salary is 100k')).compiled_truth;
    expect(evaluateCoreBudget({ pages: [page], write: { kind: 'upsert', page: { ...page, compiled_truth: withWorld } }, maxChars: 500, today: TODAY, readable: null })).toMatchObject({ refused: true, reason: 'max_chars' });
  });

  it('a takes fence appended to a core page does not render, so it cannot be refused', () => {
    const page = corePage('a', 'x'.repeat(600));
    const d = evaluateCoreBudget({ pages: [page], write: { kind: 'upsert', page: { ...page, compiled_truth: `${page.compiled_truth}\n<!--- gbrain:takes:begin -->\nnew take\n<!--- gbrain:takes:end -->` } }, maxChars: 500, today: TODAY, readable: null });
    expect(d).toMatchObject({ checked: true, refused: false });
  });
});

describe('largest_pages and suggestion', () => {
  it('lists up to 5 visible, renderable pages by size after the write, never naming unreadable ones', () => {
    const pages = [
      ...Array.from({ length: 7 }, (_, i) => corePage(`p${i}`, 'y'.repeat(10 * (i + 1)))),
      corePage('hidden', 'y'.repeat(999), { always_load: true }, { source_id: 'secret-src' }),
      corePage('private', 'y'.repeat(999), { always_load: true, visibility: 'private' }),
    ];
    const sections = measureCore(pages, TODAY).block.sections;
    expect(largestVisiblePages(sections, ['default']).map((p) => p.slug)).toEqual(['p6', 'p5', 'p4', 'p3', 'p2']);
    expect(largestVisiblePages(sections, null)[0].slug).toBe('hidden');
  });

  it('breaks size ties by brain-wide order', () => {
    const pages = [corePage('b', 'same'), corePage('a', 'same'), corePage('c', 'same', { always_load: true, core_priority: 1 })];
    const sections = measureCore(pages, TODAY).block.sections;
    expect(largestVisiblePages(sections, null).map((p) => p.slug)).toEqual(['c', 'a', 'b']);
  });

  it('offers raising the budget only when the write would fit at the 6000 ceiling (never at the ceiling itself)', () => {
    const raise = 'Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory.core.max_chars 6000 (see brainstream core status --json)';
    const moveOnly = 'Move detail into a linked non-core page and keep a one-line pointer (see brainstream core status --json)';
    expect(budgetSuggestion('max_chars', 6000)).toBe(raise);
    expect(budgetSuggestion('max_chars', 6001)).toBe(moveOnly);
  });
});
