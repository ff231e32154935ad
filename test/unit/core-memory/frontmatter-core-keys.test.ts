import { describe, expect, it } from 'vitest';
import { editCoreKeys } from '../../../src/core-memory/frontmatter-core-keys.js';

const add = { set: { always_load: true as const }, remove: [] };
const addP = { set: { always_load: true as const, core_priority: 10 }, remove: [] };
const drop = { set: {}, remove: ['always_load', 'core_priority'] as const };

describe('core add/remove write-through: frontmatter edited line by line', () => {
  it('sets keys in place or appends them, keeping comments, quoting and everything else', () => {
    expect(editCoreKeys('---\ntitle: "Re: lunch" # c\ncore_priority: 5\n---\nBody\n', addP)).toBe(
      '---\ntitle: "Re: lunch" # c\ncore_priority: 10\nalways_load: true\n---\nBody\n',
    );
    expect(editCoreKeys('---\nalways_load: "true"\ntags:\n  - a\n---\nB', add)).toBe('---\nalways_load: true\ntags:\n  - a\n---\nB');
  });

  it('adds a frontmatter block to a file without one; keeps CRLF and a byte-order mark', () => {
    expect(editCoreKeys('# Title\n\nBody\n', add)).toBe('---\nalways_load: true\n---\n# Title\n\nBody\n');
    expect(editCoreKeys('\uFEFF---\r\ntitle: T\r\n---\r\nB\r\n', add)).toBe('\uFEFF---\r\ntitle: T\r\nalways_load: true\r\n---\r\nB\r\n');
  });

  it('removes the keys and their continuation lines; nothing to remove leaves the file as it is', () => {
    expect(editCoreKeys('---\ntitle: T\nalways_load:\n  true\ncore_priority: 3\n---\nB', drop)).toBe('---\ntitle: T\n---\nB');
    expect(editCoreKeys('Body only\n', drop)).toBe('Body only\n');
  });

  it('returns null when it cannot edit safely (unclosed frontmatter, YAML that would not parse)', () => {
    expect(editCoreKeys('---\ntitle: T\nBody', add)).toBeNull();
    expect(editCoreKeys('---\ntitle: [unclosed\n---\nB', add)).toBeNull();
  });
});
