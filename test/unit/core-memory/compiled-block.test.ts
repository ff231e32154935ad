import { describe, expect, it } from 'vitest';
import { compiledRevisionOf, managedBlock, withManagedBlock, withoutManagedBlock } from '../../../src/core-memory/compiled-block.js';

const block = managedBlock('0123456789abcdef', '# Core memory\n\n## P (p)\n\nText');

describe('compiled-context managed block', () => {
  it('is the begin marker with the revision, the core block, the end marker; empty core keeps only the markers', () => {
    expect(block).toBe('<!-- brainstream:compiled-context:begin core=0123456789abcdef -->\n# Core memory\n\n## P (p)\n\nText\n<!-- brainstream:compiled-context:end -->');
    expect(managedBlock('ab', '')).toBe('<!-- brainstream:compiled-context:begin core=ab -->\n<!-- brainstream:compiled-context:end -->');
  });

  it('appends after a blank line, replaces in place, keeps everything outside byte for byte', () => {
    expect(withManagedBlock('', 'f', block)).toBe(`${block}\n`);
    const once = withManagedBlock('# Rules\r\n\nKeep me.\n\n\n', 'f', block);
    expect(once).toBe(`# Rules\r\n\nKeep me.\n\n${block}\n`);
    const edited = `${once}tail\n`;
    const newer = managedBlock('fedcba9876543210', 'X');
    expect(withManagedBlock(edited, 'f', newer)).toBe(`# Rules\r\n\nKeep me.\n\n${newer}\ntail\n`);
    expect(withManagedBlock(once, 'f', block)).toBe(once); // byte-stable
  });

  it('removal restores the text around it; include then remove is the identity', () => {
    for (const text of ['', '# Rules\n', 'a\n\nb\n']) expect(withoutManagedBlock(withManagedBlock(text, 'f', block), 'f')).toBe(text);
    expect(withoutManagedBlock(`a\n\n${block}\n\nb\n`, 'f')).toBe('a\n\nb\n');
    expect(withoutManagedBlock('no block here\n', 'f')).toBe('no block here\n');
  });

  it('damaged markers are refused, never guessed at; the revision is read back', () => {
    const begin = '<!-- brainstream:compiled-context:begin core=ab -->';
    const end = '<!-- brainstream:compiled-context:end -->';
    for (const bad of [`${begin}\nno end`, `no begin\n${end}`, `${end}\n${begin}`, `${begin}\n${end}\n${begin}\n${end}`, `<!-- brainstream:compiled-context:begin core=XYZ -->\n${end}`]) {
      expect(() => withManagedBlock(bad, 'AGENTS.md', block)).toThrow(expect.objectContaining({ code: 'compiled_context_damaged' }));
      expect(compiledRevisionOf(bad)).toBeNull();
    }
    expect(compiledRevisionOf(`x\n${block}\n`)).toBe('0123456789abcdef');
    expect(compiledRevisionOf('plain')).toBeNull();
  });
});
