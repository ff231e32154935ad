import { describe, expect, it } from 'vitest';
import { suggestScore } from '../../../src/core-memory/core-suggest-score.js';

const page = (slug: string, type = 'concept', frontmatter: Record<string, unknown> = {}) => ({ slug, type, frontmatter });

describe('core suggest scores', () => {
  it.each([
    [page('core/profile'), 3],
    [page('me'), 3],
    [page('people/me'), 3],
    [page('prefs/editor'), 2],
    [page('preferences'), 2],
    [page('notes/style', 'note', { tags: ['Preferences'] }), 2],
    [page('notes/style', 'note', { tags: 'work, preferences' }), 2],
    [page('projects/live', 'project'), 1],
    [page('projects/live', 'project', { status: 'active' }), 1],
    [page('projects/old', 'project', { status: 'Done' }), 0],
    [page('projects/old', 'project', { status: 'archived' }), 0],
    [page('projects/old', 'project', { status: 'closed' }), 0],
    [page('notes/prefs'), 0],
    [page('people/alice', 'person'), 0],
  ])('%j → %i', (p, score) => {
    expect(suggestScore(p)).toBe(score);
  });
});
