import { describe, expect, it } from 'vitest';
import { renderCoreText } from '../../../src/core-memory/core-text.js';
import { renderFactsFence } from '../../../src/pages/facts-fence.js';
import { FENCE_MARKERS } from '../../../src/pages/fences.js';
import { factRow, TODAY } from './fixtures.js';

const takes = (inner: string) => `${FENCE_MARKERS.takes.begin}\n${inner}\n${FENCE_MARKERS.takes.end}`;
const fact = factRow;

describe('per-page core text', () => {
  it('keeps plain compiled truth, trimmed', () => {
    expect(renderCoreText('\n  Hello\n\nWorld  \n', TODAY)).toBe('Hello\n\nWorld');
  });

  it('removes takes fences, markers included, and an unterminated one to the end', () => {
    expect(renderCoreText(`A\n\n${takes('| alice | believes x |')}\n\nB`, TODAY)).toBe('A\n\nB');
    expect(renderCoreText(`A\n\n${FENCE_MARKERS.takes.begin}\nrest of page`, TODAY)).toBe('A');
  });

  it('replaces a facts fence by one line per active, world, unexpired row', () => {
    const fence = renderFactsFence([
      fact(1, 'Likes tea'),
      fact(2, 'Old', { active: false, context: 'superseded by #3' }),
      fact(3, 'Secret', { visibility: 'private' }),
      fact(4, 'Expired', { valid_until: '2026-04-06' }),
      fact(5, 'Ends today', { valid_until: TODAY }),
    ]);
    const out = renderCoreText(`Intro\n\n## Facts\n\n${fence}\n\nOutro`, TODAY);
    expect(out).toBe(
      [
        'Intro',
        '',
        '## Facts',
        '',
        '- #1 Likes tea (fact, since 2026-01-01)',
        '- #5 Ends today (fact, 2026-01-01 to 2026-04-07)',
        '',
        'Outro',
      ].join('\n'),
    );
    expect(out).not.toContain('gbrain:facts');
  });

  it('removes an empty table and the ## Facts heading directly above it', () => {
    const fence = renderFactsFence([fact(1, 'gone', { active: false }), fact(2, 'hidden', { visibility: 'private' })]);
    expect(renderCoreText(`Intro\n\n## Facts\n\n\n${fence}\n\nOutro`, TODAY)).toBe('Intro\n\nOutro');
    expect(renderCoreText(`## Facts\n${fence}`, TODAY)).toBe('');
  });

  it('keeps a heading that is not directly above the empty table', () => {
    const fence = renderFactsFence([fact(1, 'gone', { active: false })]);
    expect(renderCoreText(`## Facts\n\nSome text\n\n${fence}`, TODAY)).toBe('## Facts\n\nSome text');
    expect(renderCoreText(`## Other\n\n${fence}\n\nX`, TODAY)).toBe('## Other\n\nX');
  });

  it('handles several fences independently', () => {
    const shown = renderFactsFence([fact(1, 'kept')]);
    const empty = renderFactsFence([fact(2, 'gone', { active: false })]);
    const out = renderCoreText(`## Facts\n\n${empty}\n\n## Facts\n\n${shown}`, TODAY);
    expect(out).toBe('## Facts\n\n- #1 kept (fact, since 2026-01-01)');
  });

  it('collapses runs of 3+ newlines left by removals', () => {
    expect(renderCoreText(`A\n\n${takes('x')}\n\n\n\nB\n\n\n\nC`, TODAY)).toBe('A\n\nB\n\nC');
  });

  it('a takes fence holding facts markers removes both', () => {
    expect(renderCoreText(`A\n${takes(renderFactsFence([fact(1, 'inside')]))}\nB`, TODAY)).toBe('A\n\nB');
  });

  it('never shows a private first row of a header-less table as a header', () => {
    const inner = '| 1 | secret | fact | 1.0 | private | low | | | s | |\n| 2 | open | fact | 1.0 | world | low | | | s | |';
    const out = renderCoreText(`${FENCE_MARKERS.facts.begin}\n${inner}\n${FENCE_MARKERS.facts.end}`, TODAY);
    expect(out).toBe('- #2 open (fact)');
  });

  it('a fact line names only what qualifies the claim: kind, validity, a confidence below certain', () => {
    const fence = renderFactsFence([
      fact(7, 'Moving to Lisbon', { kind: 'commitment', valid_from: '', valid_until: '2026-09-01', confidence: '0.6', source: 'standup', context: 'said twice' }),
      fact(8, 'Prefers tea', { kind: 'preference' }),
    ]);
    expect(renderCoreText(fence, TODAY)).toBe('- #7 Moving to Lisbon (commitment, until 2026-09-01, confidence 0.6)\n- #8 Prefers tea (preference, since 2026-01-01)');
  });

  it('an empty page gives an empty text', () => {
    expect(renderCoreText('', TODAY)).toBe('');
  });
});
