import { describe, expect, it } from 'vitest';
import { checkRemoteCoreKeys, checkRemoteDelete } from '../../../src/core-memory/owner-rules.js';
import { CoreDeleteOwnerOnlyError } from '../../../src/core-memory/errors.js';
import { refusal } from './fixtures.js';

const check = (stored: Record<string, unknown> | null, input: Record<string, unknown>) =>
  checkRemoteCoreKeys({ source_id: 'default', slug: 'notes/x', stored, input });

describe('owner-only key always_load', () => {
  it('refuses making a page core, naming core add with --source', () => {
    const e = refusal(() => check({}, { always_load: true }));
    expect(`${e.code}: ${e.message}`).toBe(
      'core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run: brainstream core add --source default notes/x',
    );
    expect(e.toEnvelope()).toMatchObject({ error: 'core_mark_owner_only', source_id: 'default', slug: 'notes/x', command: 'brainstream core add --source default notes/x' });
  });

  it('refuses on a new page too, and adds --priority when one was requested', () => {
    expect(refusal(() => check(null, { always_load: true, core_priority: 10 })).message).toMatch(/brainstream core add --source default notes\/x --priority 10$/);
  });

  it('refuses removing core, naming core remove', () => {
    expect(refusal(() => check({ always_load: true }, { always_load: false })).message).toMatch(
      /Ask the user to run: brainstream core remove --source default notes\/x$/,
    );
    expect(refusal(() => check({ always_load: true }, { always_load: 'true' })).details.command).toBe('brainstream core remove --source default notes/x');
  });

  it('compares effective values: echoes and false-where-absent pass', () => {
    expect(check({ always_load: true }, { always_load: true })).toEqual({ always_load: true });
    expect(check({}, { always_load: false })).toEqual({ always_load: false });
    expect(check(null, { always_load: 'yes' })).toEqual({ always_load: 'yes' });
    expect(check({ always_load: 'yes' }, { always_load: false })).toEqual({ always_load: false });
  });
});

describe('owner-only key core_priority', () => {
  it('refuses a different effective priority, on core and non-core pages', () => {
    expect(refusal(() => check({ always_load: true, core_priority: 10 }, { core_priority: 20 })).message).toMatch(
      /brainstream core add --source default notes\/x --priority 20$/,
    );
    const nonCore = refusal(() => check({}, { core_priority: 5 }));
    expect(nonCore.message).toContain('core_priority only matters for core pages');
    expect(nonCore.message).toContain('brainstream core add --source default notes/x --priority 5');
  });

  it('passes echoes and core_priority: 100 where none was set', () => {
    expect(check({ always_load: true, core_priority: 10 }, { always_load: true, core_priority: 10 })).toEqual({ always_load: true, core_priority: 10 });
    expect(check({}, { core_priority: 100 })).toEqual({ core_priority: 100 });
    expect(check({ core_priority: 'high' }, { core_priority: 100 })).toEqual({ core_priority: 100 });
    expect(check({}, { core_priority: 'urgent' })).toEqual({ core_priority: 'urgent' });
  });

  it('a non-number request counts as 100', () => {
    expect(refusal(() => check({ always_load: true, core_priority: 10 }, { core_priority: 'top' })).message).toMatch(/--priority 100$/);
  });
});

describe('omitted owner-only keys keep stored values', () => {
  it('merges always_load and core_priority back into a remote rewrite', () => {
    expect(check({ always_load: true, core_priority: 10, summary: 'old' }, { summary: 'new' })).toEqual({
      summary: 'new',
      always_load: true,
      core_priority: 10,
    });
  });

  it('merges only what was stored and leaves other keys as given', () => {
    expect(check({ always_load: true }, { core_priority: 100, tags: ['a'] })).toEqual({ always_load: true, core_priority: 100, tags: ['a'] });
    expect(check(null, { summary: 's' })).toEqual({ summary: 's' });
  });
});

describe('remote deletes', () => {
  it('refuses deleting a core page, naming core remove', () => {
    expect(() => checkRemoteDelete({ source_id: 'work', slug: 'people/alice-example', frontmatter: { always_load: true } })).toThrow(CoreDeleteOwnerOnlyError);
    expect(() => checkRemoteDelete({ source_id: 'work', slug: 'people/alice-example', frontmatter: { always_load: true } })).toThrow(
      expect.objectContaining({
        code: 'core_delete_owner_only',
        message:
          'only the brain owner can delete a core page. Ask the user to run: brainstream core remove --source work people/alice-example (after which the page can be deleted)',
      }),
    );
  });

  it('lets non-core pages be deleted', () => {
    expect(() => checkRemoteDelete({ source_id: 'default', slug: 'x', frontmatter: { always_load: 'true' } })).not.toThrow();
  });
});
