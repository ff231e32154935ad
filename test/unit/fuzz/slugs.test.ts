import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidSlugError, slugFromRelativePath, slugProblem, slugSegment, titleFromFileName, typeFromPath, validateSlug } from '../../../src/pages/import-paths.js';
import { SlugParam } from '../../../src/ops/operations/slug-param.js';
import { fuzzRuns, hostileText } from '../../support/fuzz.js';

/** A file path below an imported folder: segments of hostile text joined by `/`, often ending `.md`. */
const relativePath = fc
  .tuple(fc.array(hostileText(40), { minLength: 1, maxLength: 4 }), fc.constantFrom('.md', '.MD', '', '.md.md', '.txt'))
  .map(([segments, ext]) => segments.join('/') + ext);

describe('slugs from import file names, whatever the names hold', () => {
  it('are always valid slugs, lower-cased, without empty, dot or dot-dot segments', () => {
    fc.assert(
      fc.property(relativePath, (path) => {
        const slug = slugFromRelativePath(path);
        if (slug === null) return;
        expect(slug).toBe(slug.toLowerCase());
        // Length is checked where the slug is used (the import counts an over-long one failed).
        if (slug.length <= 512) {
          expect(slugProblem(slug)).toBeNull();
          expect(validateSlug(slug)).toBe(slug);
        }
        for (const segment of slug.split('/')) {
          expect(['', '.', '..']).not.toContain(segment);
          expect(segment).not.toMatch(/^-|-$|--|\s|[\\/\p{Cc}]/u);
        }
      }),
      fuzzRuns(1000),
    );
  });

  it('give each path as many segments as it has folders', () => {
    fc.assert(
      fc.property(relativePath, (path) => {
        const slug = slugFromRelativePath(path);
        if (slug !== null) expect(slug.split('/').length).toBe(path.split('/').length);
      }),
      fuzzRuns(500),
    );
  });

  it('normalise a segment once and for all: a slug segment is its own slug segment', () => {
    fc.assert(
      fc.property(hostileText(60), (text) => {
        const once = slugSegment(text);
        expect(slugSegment(once)).toBe(once);
      }),
      fuzzRuns(1000),
    );
  });

  it('titles and types from file names carry no control characters and never throw', () => {
    fc.assert(
      fc.property(relativePath, (path) => {
        expect(titleFromFileName(path)).not.toMatch(/\p{Cc}/u);
        expect(['person', 'company', 'project', 'note', 'meeting', 'deal', 'concept']).toContain(typeFromPath(path));
      }),
      fuzzRuns(500),
    );
  });
});

describe('slugs given on the command line or to an operation, whatever they hold', () => {
  it('are refused with InvalidSlugError or accepted lower-cased and valid, the same way by both', () => {
    const slugLike = fc.oneof(
      hostileText(80),
      fc.array(fc.constantFrom('a', 'B', '..', '.', '', 'ж', 'x y', '\\', '\u0007'), { maxLength: 5 }).map((s) => s.join('/')),
      fc.string({ unit: fc.constantFrom('a', 'İ', 'ß'), minLength: 500, maxLength: 520 }),
    );
    fc.assert(
      fc.property(slugLike, (raw) => {
        let accepted: string | null = null;
        try {
          accepted = validateSlug(raw);
        } catch (err) {
          expect(err).toBeInstanceOf(InvalidSlugError);
        }
        const viaParam = SlugParam.safeParse(raw);
        expect(viaParam.success).toBe(accepted !== null);
        if (accepted === null) return;
        expect(viaParam.data).toBe(accepted);
        expect(accepted).toBe(raw.toLowerCase());
        expect(accepted.length).toBeGreaterThan(0);
        expect(accepted.length).toBeLessThanOrEqual(512);
        expect(accepted.startsWith('/')).toBe(false);
        expect(accepted).not.toMatch(/[\\\p{Cc}]/u);
        expect(accepted.split('/')).not.toContain('..');
      }),
      fuzzRuns(1000),
    );
  });
});
