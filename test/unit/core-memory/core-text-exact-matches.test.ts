import { describe, expect, it } from 'vitest';
import { buildCoreSection } from '../../../src/core-memory/core-section.js';
import { renderCoreText } from '../../../src/core-memory/core-text.js';
import { renderFactsFence } from '../../../src/pages/facts-fence.js';
import { isFactRowShown } from '../../../src/pages/facts-table.js';
import { corePage, factRow, TODAY } from './fixtures.js';

const fact = factRow;

describe('per-page core text matches only the exact spellings', () => {
  it('only `world` rows render: `World`, `WORLD` and other spellings stay out', () => {
    expect(isFactRowShown(fact(1, 'a'), TODAY)).toBe(true);
    for (const visibility of ['World', 'WORLD', 'public', '']) expect(isFactRowShown(fact(1, 'a', { visibility }), TODAY)).toBe(false);
    const fence = renderFactsFence([fact(1, 'Shown'), fact(2, 'Capitalised', { visibility: 'World' })]);
    const out = renderCoreText(fence, TODAY);
    expect(out).toContain('Shown');
    expect(out).not.toContain('Capitalised');
  });

  it('an emptied table takes `## Facts` with it, but not a heading spelled otherwise', () => {
    const empty = renderFactsFence([fact(1, 'gone', { active: false })]);
    expect(renderCoreText(`Intro\n\n## Facts\n\n${empty}`, TODAY)).toBe('Intro');
    expect(renderCoreText(`Intro\n\n##   Facts  \n\n${empty}`, TODAY)).toBe('Intro');
    expect(renderCoreText(`Intro\n\n## facts\n\n${empty}`, TODAY)).toBe('Intro\n\n## facts');
    expect(renderCoreText(`Intro\n\n## FACTS\n\n${empty}`, TODAY)).toBe('Intro\n\n## FACTS');
    expect(renderCoreText(`Intro\n\n### Facts\n\n${empty}`, TODAY)).toBe('Intro\n\n### Facts');
  });

  it('a shown fact is one line, without the table header', () => {
    expect(renderCoreText(renderFactsFence([fact(1, 'kept')]), TODAY)).toBe('- #1 kept (fact, since 2026-01-01)');
  });
});

describe('core section heading', () => {
  it('collapses whitespace runs in the title to one space and does not trim it; size counts those spaces', () => {
    const section = buildCoreSection(corePage('s', 'body', { always_load: true }, { title: '\tTwo  words ' }), TODAY);
    expect(section.heading).toBe('##  Two words  (s)');
    expect(section.chars).toBe('##  Two words  (s)\n\nbody'.length);
  });
});
