import { describe, expect, it } from 'vitest';
import { splitBody } from '../../../src/pages/body-split.js';

describe('splitBody: compiled truth and timeline, each separator', () => {
  it.each([
    ['A\n\n<!-- timeline -->\n\n- 2026-04-07 met', 'A', '- 2026-04-07 met'],
    ['B\n\n--- timeline ---\n\n- 2026-03-01 call', 'B', '- 2026-03-01 call'],
    ['C\n\n---\n\n## Timeline\n\n- 2024: event', 'C', '## Timeline\n\n- 2024: event'],
    ['D\n\n---\n\nE', 'D\n\n---\n\nE', ''],
    ['F\n\n## Timeline\n\n- 2024-01-01: kickoff', 'F', '## Timeline\n\n- 2024-01-01: kickoff'],
    [
      'G\n\n## History\n\nfounded in a garage.\n\n## Architecture\n\nH',
      'G\n\n## History\n\nfounded in a garage.\n\n## Architecture\n\nH',
      '',
    ],
  ])('%j', (body, compiled, timeline) => {
    expect(splitBody(body)).toEqual({ compiled_truth: compiled, timeline });
  });
});

describe('splitBody — sentinels', () => {
  it('accepts <!--timeline--> and surrounding whitespace', () => {
    expect(splitBody('x\n  <!--timeline-->  \ny')).toEqual({ compiled_truth: 'x', timeline: 'y' });
  });

  it('matches --- timeline --- case-insensitively with any inner whitespace', () => {
    expect(splitBody('x\n---   TimeLine\t---\ny')).toEqual({ compiled_truth: 'x', timeline: 'y' });
  });

  it('splits at the first sentinel from the top', () => {
    expect(splitBody('a\n<!-- timeline -->\nb\n--- timeline ---\nc')).toEqual({
      compiled_truth: 'a',
      timeline: 'b\n--- timeline ---\nc',
    });
  });

  it('a leading marker sentinel gives an empty compiled truth', () => {
    expect(splitBody('<!-- timeline -->\n- 2020 x')).toEqual({ compiled_truth: '', timeline: '- 2020 x' });
  });

  it('a bare --- needs text before it to be sentinel 3', () => {
    // Not sentinel 3, and with prose the fallback does not apply either: nothing splits.
    const body = '---\n\n## Timeline\n\nprose';
    expect(splitBody(body)).toEqual({ compiled_truth: body, timeline: '' });
    // The rule line itself is non-blank text before the heading, so the fallback applies.
    expect(splitBody('---\n\n## Timeline\n\n- 2024 x')).toEqual({
      compiled_truth: '---',
      timeline: '## Timeline\n\n- 2024 x',
    });
  });

  it('a bare --- followed by ## History splits (case-insensitive)', () => {
    expect(splitBody('intro\n---\n\n\n## HISTORY of it\nanything goes')).toEqual({
      compiled_truth: 'intro',
      timeline: '## HISTORY of it\nanything goes',
    });
  });

  it('a bare --- followed by ### Timeline or ## Timelines is a horizontal rule', () => {
    const a = 'intro\n---\n### Timeline\n- 2024 x';
    expect(splitBody(a)).toEqual({ compiled_truth: a, timeline: '' });
    const b = 'intro\n---\n## Timelines\n- 2024 x';
    expect(splitBody(b)).toEqual({ compiled_truth: b, timeline: '' });
  });

  it('handles CRLF bodies', () => {
    expect(splitBody('A\r\n\r\n<!-- timeline -->\r\n- 2026 x\r\n')).toEqual({ compiled_truth: 'A', timeline: '- 2026 x' });
  });
});

describe('splitBody — fallback', () => {
  it('keeps text after the timeline section in compiled truth', () => {
    expect(splitBody('F\n\n## Timeline\n\n- 2024-01-01 a\n* 2023 b\n+ **2022** c\n\n## Next\n\nN')).toEqual({
      compiled_truth: 'F\n\n## Next\n\nN',
      timeline: '## Timeline\n\n- 2024-01-01 a\n* 2023 b\n+ **2022** c',
    });
  });

  it('allows indented continuation lines after a dated bullet', () => {
    expect(splitBody('F\n## History\n- 2024 a\n  more about a\n\t\ttabbed\n- 2025 b')).toEqual({
      compiled_truth: 'F',
      timeline: '## History\n- 2024 a\n  more about a\n\t\ttabbed\n- 2025 b',
    });
  });

  it('rejects an indented line before any dated bullet', () => {
    const body = 'F\n## Timeline\n  preface\n- 2024 a';
    expect(splitBody(body).timeline).toBe('');
  });

  it('rejects a one-space indented continuation', () => {
    const body = 'F\n## Timeline\n- 2024 a\n more';
    expect(splitBody(body).timeline).toBe('');
  });

  it('rejects undated bullets and sections without any dated bullet', () => {
    expect(splitBody('F\n## Timeline\n- 2024 a\n- later').timeline).toBe('');
    expect(splitBody('F\n## Timeline\n\n').timeline).toBe('');
    expect(splitBody('F\n## Timeline\n- 20245 x').timeline).toBe('');
  });

  it('needs non-blank text before the heading', () => {
    const body = '\n\n## Timeline\n- 2024 a';
    expect(splitBody(body)).toEqual({ compiled_truth: body.trim(), timeline: '' });
  });

  it('ignores headings inside fenced code blocks', () => {
    const body = 'F\n```md\n## Timeline\n- 2024 a\n```\ntext';
    expect(splitBody(body)).toEqual({ compiled_truth: body, timeline: '' });
    const tilde = 'F\n~~~~\n## Timeline\n- 2024 a\n~~~\n~~~~';
    expect(splitBody(tilde).timeline).toBe('');
  });

  it('takes the first qualifying section when an earlier heading does not qualify', () => {
    expect(splitBody('F\n## History\nprose\n## Timeline\n- 2024 a')).toEqual({
      compiled_truth: 'F\n## History\nprose',
      timeline: '## Timeline\n- 2024 a',
    });
  });

  it('never splits at ### Timeline or ## Timelines', () => {
    expect(splitBody('F\n### Timeline\n- 2024 a').timeline).toBe('');
    expect(splitBody('F\n## Timelines\n- 2024 a').timeline).toBe('');
  });

  it('trims both halves', () => {
    expect(splitBody('\n\n  F  \n\n## Timeline\n- 2024 a\n\n\n')).toEqual({
      compiled_truth: 'F',
      timeline: '## Timeline\n- 2024 a',
    });
  });
});
