import { describe, expect, it } from 'vitest';
import {
  InvalidSlugError,
  slugFromRelativePath,
  slugProblem,
  slugSegment,
  titleFromFileName,
  typeFromPath,
  validateSlug,
} from '../../../src/pages/import-paths.js';

describe('slugFromRelativePath', () => {
  it.each([
    ['People/Alice Example.md', 'people/alice-example'],
    ['notes/Café crème.md', 'notes/cafe-creme'],
    ['a/  Spaced   Out  .md', 'a/spaced-out'],
    ['x/hello---world--.md', 'x/hello-world'],
    ['x/Q&A: why?.md', 'x/qa-why'],
    ['dir/v1.2_notes.MD', 'dir/v1.2_notes'],
    ['日本/東京.md', '日本/東京'],
    // Only / separates folders: a backslash is part of the name and dropped like punctuation.
    ['folder\\Sub Dir\\Page.md', 'foldersub-dirpage'],
    ['back\\slash.md', 'backslash'],
    ['Ünïcödé/Ça.md', 'unicode/ca'],
  ])('%s → %s', (path, slug) => {
    expect(slugFromRelativePath(path)).toBe(slug);
  });

  it('returns null when a segment cannot make a slug', () => {
    expect(slugFromRelativePath('people/!!!.md')).toBeNull();
    expect(slugFromRelativePath('@@/a.md')).toBeNull();
    expect(slugFromRelativePath('a/ - .md')).toBeNull();
    expect(slugFromRelativePath('a/...md')).toBeNull();
  });

  it('keeps marks that are not in the stripped combining range', () => {
    expect(slugSegment('हिन्दी')).toBe('हिन्दी');
  });
});

describe('titleFromFileName', () => {
  it.each([
    ['alice-example.md', 'Alice Example'],
    ['my_great__note.md', 'My Great Note'],
    ['people/bob smith.md', 'Bob Smith'],
    ['iPhone-tips', 'IPhone Tips'],
    ['already Title.MD', 'Already Title'],
    ['bell\u0007\u001b[31mred.md', 'Bell [31mred'],
    ['tab\there\u009bx.md', 'Tab Here X'],
  ])('%s → %s', (name, title) => {
    expect(titleFromFileName(name)).toBe(title);
  });
});

describe('typeFromPath', () => {
  it.each([
    ['people/alice.md', 'person'],
    ['Person/alice.md', 'person'],
    ['work/Companies/acme.md', 'company'],
    ['company/acme.md', 'company'],
    ['projects/x.md', 'project'],
    ['project/x.md', 'project'],
    ['notes/x.md', 'note'],
    ['note/x.md', 'note'],
    ['Meetings/2024/x.md', 'meeting'],
    ['meeting/x.md', 'meeting'],
    ['deals/x.md', 'deal'],
    ['deal/x.md', 'deal'],
    ['people.md', 'concept'],
    ['misc/peoples/x.md', 'concept'],
    ['x.md', 'concept'],
  ])('%s → %s', (path, type) => {
    expect(typeFromPath(path)).toBe(type);
  });

  it('uses the first (leftmost) folder that matches', () => {
    expect(typeFromPath('projects/people/x.md')).toBe('project');
    expect(typeFromPath('people/projects/x.md')).toBe('person');
  });
});

describe('validateSlug', () => {
  it('lower-cases valid slugs', () => {
    expect(validateSlug('Notes/X')).toBe('notes/x');
    expect(validateSlug('a/..b/c.')).toBe('a/..b/c.');
  });

  it.each([
    ['', 'slug must not be empty'],
    ['/abs', 'must not start with /'],
    ['a/../b', 'must not contain a .. segment'],
    ['..', 'must not contain a .. segment'],
    ['a\\b', 'must not contain a backslash'],
    ['a\u0000b', 'must not contain control characters'],
    ['a\nb', 'must not contain control characters'],
  ])('refuses %j', (slug, message) => {
    expect(slugProblem(slug.toLowerCase())).toContain(message);
    expect(() => validateSlug(slug)).toThrow(InvalidSlugError);
    expect(() => validateSlug(slug)).toThrow(expect.objectContaining({ code: 'invalid_slug', message: expect.stringContaining(message) }));
  });
});
