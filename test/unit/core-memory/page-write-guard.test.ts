import { describe, expect, it } from 'vitest';
import type { CorePageRow } from '../../../src/core-memory/core-page.js';
import { CoreBudgetExceededError, CoreMarkOwnerOnlyError, CoreRemoteEditRefusedError } from '../../../src/core-memory/errors.js';
import { guardPageWrite, type PageWriteGuardInput } from '../../../src/core-memory/page-write-guard.js';
import { decideRemoteEdit, remoteEditRefusal } from '../../../src/core-memory/remote-edit.js';
import { corePage, TODAY } from './fixtures.js';

const stored = corePage('prefs', 'Short.', { always_load: true, core_priority: 10 }, { title: 'Prefs' });

const input = (over: Partial<PageWriteGuardInput<CorePageRow>>): PageWriteGuardInput<CorePageRow> => ({
  caller: 'remote',
  readable: ['default'],
  budgeted: true,
  stored,
  next: { ...stored, frontmatter: {}, compiled_truth: 'Short, edited.' },
  corePages: [stored],
  maxChars: 4000,
  remoteEdit: 'notify',
  today: TODAY,
  ...over,
});

describe('remote-edit decision', () => {
  it.each([
    [{ caller: 'owner', wasCore: true, changed: true, policy: 'refuse' }, 'exempt'],
    [{ caller: 'remote', wasCore: false, changed: true, policy: 'refuse' }, 'exempt'],
    [{ caller: 'remote', wasCore: true, changed: false, policy: 'refuse' }, 'exempt'],
    [{ caller: 'remote', wasCore: true, changed: true, policy: 'notify' }, 'notify'],
    [{ caller: 'remote', wasCore: true, changed: true, policy: 'allow' }, 'allow'],
    [{ caller: 'remote', wasCore: true, changed: true, policy: 'refuse' }, 'refuse'],
  ] as const)('%j → %s', (q, outcome) => {
    expect(decideRemoteEdit(q)).toBe(outcome);
  });

  it('refusal names the brain host and the config command', () => {
    const e = remoteEditRefusal('work', 'prefs');
    expect(e.code).toBe('core_remote_edit_refused');
    expect(e.message).toBe(
      'core page work:prefs cannot be edited remotely (memory.core.remote_edit is refuse). Make the edit on the brain host, or ask the user to run: brainstream config set memory.core.remote_edit notify',
    );
  });
});

describe('guardPageWrite: owner-only keys, then the remote-edit policy, then the budget', () => {
  it('merges omitted core keys and notifies for a remote edit of a core page', () => {
    const r = guardPageWrite(input({}));
    expect(r.page.frontmatter).toEqual({ always_load: true, core_priority: 10 });
    expect(r).toMatchObject({ changed: true, remoteEdit: 'notify' });
    expect(r.budget).toMatchObject({ checked: true, refused: false });
  });

  it('a remote write that only omits core keys changes nothing', () => {
    const r = guardPageWrite(input({ next: { ...stored, frontmatter: { core_priority: 10 } }, remoteEdit: 'refuse' }));
    expect(r).toMatchObject({ changed: false, remoteEdit: 'exempt', budget: null });
  });

  it('checks owner-only keys before the remote-edit policy', () => {
    expect(() => guardPageWrite(input({ next: { ...stored, frontmatter: { always_load: false } }, remoteEdit: 'refuse' }))).toThrow(CoreMarkOwnerOnlyError);
  });

  it('checks the remote-edit policy before the budget', () => {
    const huge = { ...stored, frontmatter: {}, compiled_truth: 'x'.repeat(9000) };
    expect(() => guardPageWrite(input({ next: huge, remoteEdit: 'refuse' }))).toThrow(CoreRemoteEditRefusedError);
    expect(() => guardPageWrite(input({ next: huge, remoteEdit: 'allow' }))).toThrow(CoreBudgetExceededError);
  });

  it('owner writes are authoritative: no merge, no policy, an omitted always_load un-cores', () => {
    const r = guardPageWrite(input({ caller: 'owner', readable: null, next: { ...stored, frontmatter: {} }, remoteEdit: 'refuse' }));
    expect(r.page.frontmatter).toEqual({});
    expect(r.remoteEdit).toBe('exempt');
    expect(r.budget).toMatchObject({ checked: true, refused: false, next: { count: 0 } });
  });

  it('the owner import is never budgeted', () => {
    const huge = { ...stored, compiled_truth: 'x'.repeat(9000) };
    expect(guardPageWrite(input({ caller: 'owner', budgeted: false, next: huge })).budget).toBeNull();
    expect(() => guardPageWrite(input({ caller: 'owner', budgeted: true, next: huge }))).toThrow(CoreBudgetExceededError);
  });

  it('frontmatter key order does not count as a change', () => {
    const s = corePage('a', 't', { always_load: true, summary: 's' });
    const r = guardPageWrite(input({ stored: s, corePages: [s], next: { ...s, frontmatter: { summary: 's' } } }));
    expect(r.changed).toBe(false);
  });
});
