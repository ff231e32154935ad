import { describe, expect, it } from 'vitest';
import { resolvePage } from '../../../src/pages/resolve-page.js';
import { InvalidFrontmatterError } from '../../../src/pages/invalid-frontmatter-error.js';

describe('resolvePage', () => {
  it('takes title and type from frontmatter first', () => {
    const page = resolvePage('---\ntitle: Alice\ntype: friend\n---\n# Heading\n', {
      slugHint: 'people/alice',
      fileName: 'alice.md',
    });
    expect(page.title).toBe('Alice');
    expect(page.type).toBe('friend');
  });

  it('falls back to the first H1, then the file name', () => {
    expect(resolvePage('text\n# From H1\n', { slugHint: 'x', fileName: 'file-name.md' }).title).toBe('From H1');
    expect(resolvePage('text', { slugHint: 'x', fileName: 'file-name.md' }).title).toBe('File Name');
  });

  it('uses the last slug segment when there is no file name', () => {
    expect(resolvePage('', { slugHint: 'people/alice-example' }).title).toBe('Alice Example');
  });

  it('derives the type from the path, else from the slug, else concept', () => {
    expect(resolvePage('', { slugHint: 'x/a', pathForType: 'People/A.md' }).type).toBe('person');
    expect(resolvePage('', { slugHint: 'meetings/a' }).type).toBe('meeting');
    expect(resolvePage('', { slugHint: 'misc/a' }).type).toBe('concept');
  });

  it('an empty file is a valid empty page titled from its file name', () => {
    expect(resolvePage('', { slugHint: 'notes/weekly-review', fileName: 'weekly-review.md', pathForType: 'notes/weekly-review.md' })).toEqual({
      title: 'Weekly Review',
      type: 'note',
      frontmatter: {},
      compiled_truth: '',
      timeline: '',
    });
  });

  it('propagates invalid frontmatter', () => {
    expect(() => resolvePage('---\na: [\n---\n', { slugHint: 'x' })).toThrow(InvalidFrontmatterError);
  });
});
