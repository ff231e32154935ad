import { describe, expect, it } from 'vitest';
import { MAX_TOOL_LINES, MAX_TOOL_TEXT_CHARS, toolTurnText } from '../../../src/hooks/tool-text.js';

describe('toolTurnText: the prose of a tool call', () => {
  it('reads the prose of the input and the output, not locations, ids or stderr', () => {
    const text = toolTurnText(
      'WebFetch',
      { url: 'https://example.com/a', prompt: 'Who leads the widget deal?' },
      { code: 200, result: 'The deal is led by Dan Okafor.\nSee https://example.com/b', url: 'https://example.com/a' },
    );
    expect(text).toBe('Who leads the widget deal?\nThe deal is led by Dan Okafor.');
  });

  it('opens JSON text and keeps only its prose values', () => {
    const body = JSON.stringify({ id: 'evt_1', title: 'Lunch with Erin Walsh', attendees: ['erin_walsh'], organizerName: 'Dan Okafor' });
    expect(toolTurnText('mcp__calendar__list', {}, [{ type: 'text', text: body }])).toBe('Lunch with Erin Walsh\nDan Okafor');
  });

  it('drops code lines, identifiers, fenced code and bare file names', () => {
    const out = [
      'import { ErinWalsh } from "./erin-walsh";',
      'const erin_walsh = new ErinWalsh();',
      'return erinWalsh.total;',
      '```',
      'Erin Walsh inside a fence',
      '```',
      'people/erin-walsh.md',
      'Erin Walsh approved the invoice.',
    ].join('\n');
    expect(toolTurnText('Bash', { command: 'cat x' }, { stdout: out })).toBe('Erin Walsh approved the invoice.');
  });

  it('tools that only write read nothing', () => {
    expect(toolTurnText('Edit', { new_string: 'Erin Walsh approved it' }, { ok: true })).toBe('');
    expect(toolTurnText('Write', { content: 'Dan Okafor' }, 'File created')).toBe('');
  });

  it('a huge output is cut: each line once, at most 200 lines and 8,000 characters', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `Meeting notes number ${i} mention someone new`);
    const text = toolTurnText('Bash', {}, { stdout: [...lines, ...lines].join('\n') });
    expect(text.split('\n').length).toBeLessThanOrEqual(MAX_TOOL_LINES);
    expect(text.length).toBeLessThanOrEqual(MAX_TOOL_TEXT_CHARS);
    expect(new Set(text.split('\n')).size).toBe(text.split('\n').length);
  });
});
