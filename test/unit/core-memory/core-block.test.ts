import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { coreRevision, renderBrainWideBlock, renderSessionBlock } from '../../../src/core-memory/core-block.js';
import { brainWideCorePages, sessionCorePages } from '../../../src/core-memory/core-order.js';
import { buildCoreSection, coreHeading } from '../../../src/core-memory/core-section.js';
import { corePage, TODAY } from './fixtures.js';

const pages = [
  corePage('b', 'B text', { always_load: true, core_priority: 50 }),
  corePage('a', 'A text', { always_load: true }),
  corePage('prefs', 'P text', { always_load: true, core_priority: 10 }),
  corePage('w1', 'W1', { always_load: true, core_priority: 1 }, { source_id: 'work' }),
  corePage('w0', 'W0', { always_load: true, core_priority: 200 }, { source_id: 'work' }),
  corePage('x', 'X', { always_load: true, core_priority: 5 }, { source_id: 'other' }),
  corePage('secret', 'S', { always_load: true, visibility: 'private' }),
  corePage('quarantined', 'Q', { always_load: true, quarantine: true }),
  corePage('gone', 'G', { always_load: true }, { deleted: true }),
  corePage('plain', 'N', {}),
];
const slugs = (list: { source_id: string; slug: string }[]) => list.map((p) => `${p.source_id}:${p.slug}`);

describe('session block order', () => {
  it('default part first, then the session source, each by priority then slug', () => {
    expect(slugs(sessionCorePages(pages, { sessionSource: 'work', readable: null }))).toEqual([
      'default:prefs',
      'default:b',
      'default:a',
      'work:w1',
      'work:w0',
    ]);
  });

  it('never includes other sources, nor the default part when it is not readable', () => {
    expect(slugs(sessionCorePages(pages, { sessionSource: 'work', readable: ['work'] }))).toEqual(['work:w1', 'work:w0']);
    expect(slugs(sessionCorePages(pages, { sessionSource: 'work', readable: ['default'] }))).toEqual([
      'default:prefs',
      'default:b',
      'default:a',
    ]);
    expect(slugs(sessionCorePages(pages, { sessionSource: 'default', readable: null }))).toEqual([
      'default:prefs',
      'default:b',
      'default:a',
    ]);
  });

  it('orders slugs by code units, not locale', () => {
    const list = [corePage('b'), corePage('B'), corePage('a'), corePage('_')];
    expect(sessionCorePages(list, { sessionSource: 'default', readable: null }).map((p) => p.slug)).toEqual(['B', '_', 'a', 'b']);
  });
});

describe('brain-wide order', () => {
  it('orders every renderable core page by priority, source, slug', () => {
    expect(slugs(brainWideCorePages(pages))).toEqual(['work:w1', 'other:x', 'default:prefs', 'default:b', 'default:a', 'work:w0']);
  });

  it('every session block is a subset of the brain-wide sections', () => {
    const wide = renderBrainWideBlock(pages, TODAY).sections.map((s) => s.section);
    for (const s of renderSessionBlock(pages, { sessionSource: 'work', readable: null }, TODAY).sections) {
      expect(wide).toContain(s.section);
    }
  });
});

describe('block format', () => {
  it('renders the header and sections joined by blank lines, no trailing newline', () => {
    const block = renderSessionBlock(
      [
        corePage('prefs/habits', 'Short answers.', { always_load: true }, { title: 'Working   preferences' }),
        corePage('core/profile', 'Alice.', { always_load: true }, { source_id: 'work', title: 'Profile' }),
      ],
      { sessionSource: 'work', readable: null },
      TODAY,
    );
    expect(block.text).toBe(
      '# Core memory\n\n## Working preferences (prefs/habits)\n\nShort answers.\n\n## Profile (work:core/profile)\n\nAlice.',
    );
    expect(block.chars).toBe(block.text.length);
  });

  it('an empty core text renders the heading alone', () => {
    const s = buildCoreSection(corePage('empty', '\n\n', { always_load: true }, { title: 'Empty' }), TODAY);
    expect(s.section).toBe('## Empty (empty)');
    expect(s.chars).toBe('## Empty (empty)'.length);
  });

  it('no renderable pages → "" without header', () => {
    expect(renderBrainWideBlock([corePage('p', 'x', { always_load: true, visibility: 'private' })], TODAY)).toEqual({
      text: '',
      chars: 0,
      sections: [],
    });
  });

  it('measures size in UTF-16 code units', () => {
    const block = renderBrainWideBlock([corePage('e', '😀é', { always_load: true }, { title: 'E' })], TODAY);
    expect(block.text).toBe('# Core memory\n\n## E (e)\n\n😀é');
    expect(block.chars).toBe(13 + 2 + 8 + 2 + 3);
  });

  it('collapses whitespace runs in titles to one space and trims nothing', () => {
    expect(coreHeading(' A \t\n B ', 'src', 's')).toBe('##  A B  (src:s)');
    expect(coreHeading('A \t B', 'default', 's')).toBe('## A B (s)');
  });

  it('reports each section with its priority and size', () => {
    const [section] = renderBrainWideBlock([corePage('p', 'text', { always_load: true, core_priority: 7 }, { title: 'T' })], TODAY).sections;
    expect(section).toEqual({
      source_id: 'default',
      slug: 'p',
      title: 'T',
      priority: 7,
      heading: '## T (p)',
      text: 'text',
      section: '## T (p)\n\ntext',
      chars: 14,
    });
  });
});

describe('core revision', () => {
  it('is the first 16 hex of SHA-256 of the UTF-8 block, also for ""', () => {
    expect(coreRevision('')).toBe('e3b0c44298fc1c14');
    const text = renderBrainWideBlock(pages, TODAY).text;
    expect(coreRevision(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex').slice(0, 16));
    expect(coreRevision('é')).not.toBe(coreRevision('e'));
  });
});
