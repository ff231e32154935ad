import { describe, expect, it } from 'vitest';
import { coreListLines, coreStatusJson, listCorePages } from '../../../src/core-memory/core-listing.js';
import { coreStatusLines } from '../../../src/ops/core-views.js';
import { corePage, TODAY } from './fixtures.js';

const pages = [
  corePage('prefs', 'Short answers.', { always_load: true, core_priority: 10 }, { title: 'Prefs' }),
  corePage('profile', 'A much longer profile text.', { always_load: true }, { title: 'Profile' }),
  corePage('secret', 'hidden', { always_load: true, visibility: 'private' }),
  corePage('unsafe', 'flagged', { always_load: true, quarantine: true }),
  corePage('w', 'work page', { always_load: true, core_priority: 10 }, { source_id: 'work', title: 'W' }),
  corePage('plain', 'not core', {}),
];

describe('core list', () => {
  it('lists core pages in brain-wide order with withheld markers, then totals', () => {
    expect(coreListLines(pages, { readable: null, includePrivate: true }, 4000, TODAY)).toEqual([
      '10  default:prefs  32 chars',
      '10  work:w  24 chars',
      '100  default:profile  49 chars',
      '100  default:secret  26 chars (private — not rendered)',
      '100  default:unsafe  27 chars (quarantined — not rendered)',
      'total 124/4000 chars, 5/50 pages',
    ]);
  });

  it('shows remote viewers only readable, non-private pages', () => {
    expect(listCorePages(pages, { readable: ['work'], includePrivate: false }, TODAY).map((p) => p.slug)).toEqual(['w']);
  });
});

describe('core status --json', () => {
  it('reports effective settings, usage, revision, notices and pages by size', () => {
    const status = coreStatusJson({
      pages,
      settings: { coreEnabled: true, maxChars: 500, remoteEdit: 'notify' },
      readable: null,
      pending: [{ source_id: 'work', slug: 'w', revision: 3 }],
      today: TODAY,
    });
    expect(status).toMatchObject({
      enabled: true,
      max_chars: 500,
      used_chars: 124,
      over_by: 0,
      over_budget: false,
      remaining_chars: 376,
      page_count: 5,
      max_pages: 50,
      remote_edit: 'notify',
      pending_notices: [{ source_id: 'work', slug: 'w', revision: 'r3' }],
    });
    expect(status.revision).toMatch(/^[0-9a-f]{16}$/);
    expect(status.pages.map((p) => [p.slug, p.chars, p.renders])).toEqual([
      ['profile', 49, true],
      ['prefs', 32, true],
      ['unsafe', 27, false],
      ['w', 24, true],
    ]);
  });
});

describe('core status and core list agree', () => {
  const status = (includePrivate: boolean, readable: string[] | null = null) =>
    coreStatusJson({
      pages,
      settings: { coreEnabled: true, maxChars: 4000, remoteEdit: 'notify' },
      readable,
      includePrivate,
      pending: [
        { source_id: 'work', slug: 'w', revision: 3 },
        { source_id: 'default', slug: 'prefs', revision: 1 },
      ],
      today: TODAY,
    });

  it('the owner sees its private core page (not rendered), as core list shows it; a remote caller never does', () => {
    const owner = status(true).pages.map((p) => [p.slug, p.renders]);
    expect(owner).toContainEqual(['secret', false]);
    expect(owner.map(([slug]) => slug).sort()).toEqual(listCorePages(pages, { readable: null, includePrivate: true }, TODAY).map((p) => p.slug).sort());
    expect(status(false, ['default']).pages.map((p) => p.slug)).not.toContain('secret');
  });

  it('the review hint names the commands to run, never a placeholder', () => {
    const pending = coreStatusLines(status(true)).find((l) => l.startsWith('pending remote edits:'));
    expect(pending).toBe(
      'pending remote edits: work:w@r3, default:prefs@r1 (review: brainstream core diff --source work w; brainstream core diff prefs)',
    );
  });
});
