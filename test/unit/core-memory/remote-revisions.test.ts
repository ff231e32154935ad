import { describe, expect, it } from 'vitest';
import { coreNoticeLine, coreNoticeLines } from '../../../src/core-memory/core-notices.js';
import { RevisionNotFoundError } from '../../../src/core-memory/errors.js';
import {
  ackRevision,
  diffBaseRevision,
  emptyRemoteRevisionState,
  latestPending,
  pendingRevisions,
  type RemoteRevisionState,
} from '../../../src/core-memory/remote-revisions.js';
import { parseRevisionToken, revisionToken } from '../../../src/core-memory/revision-token.js';

describe('revision tokens', () => {
  it('formats and parses r<N>', () => {
    expect(revisionToken(7)).toBe('r7');
    expect(parseRevisionToken('r7')).toBe(7);
    expect(parseRevisionToken(' R12 ')).toBe(12);
    for (const bad of ['r0', '7', 'r', 'r-1', 'r1.5', 'rev3', 'r01']) expect(parseRevisionToken(bad)).toBeNull();
  });
});

describe('pending remote revisions and ack', () => {
  /** The state with remote edits saved as `versions` (ascending, as the projection reads them). */
  const withRemote = (state: RemoteRevisionState, ...versions: number[]): RemoteRevisionState => ({
    ...state,
    remote_revisions: [...state.remote_revisions, ...versions],
  });
  const state = withRemote(emptyRemoteRevisionState('default', 'prefs'), 3, 5);

  it('lists pending revisions and names the latest', () => {
    expect(pendingRevisions(state)).toEqual([3, 5]);
    expect(latestPending(state)).toBe(5);
  });

  it('acking rN acknowledges it and every earlier revision', () => {
    const acked = ackRevision(state, 'r5');
    expect(pendingRevisions(acked)).toEqual([]);
    expect(latestPending(acked)).toBeNull();
    const partly = ackRevision(state, 'r3');
    expect(pendingRevisions(partly)).toEqual([5]);
  });

  it('a later remote edit raises a new notice', () => {
    const again = withRemote(ackRevision(state, 'r5'), 8);
    expect(latestPending(again)).toBe(8);
  });

  it('refuses a token that is not a pending remote revision, leaving the state unchanged', () => {
    for (const token of ['r4', 'r2', 'x', 'r9']) {
      expect(() => ackRevision(state, token)).toThrow(RevisionNotFoundError);
    }
    const acked = ackRevision(state, 'r5');
    expect(() => ackRevision(acked, 'r5')).toThrow(
      expect.objectContaining({ code: 'revision_not_found', message: 'r5 is not a pending remote revision of prefs (it has none)' }),
    );
    expect(pendingRevisions(state)).toEqual([3, 5]);
  });

  it('diff base: the last acknowledged version, else the one before the first pending', () => {
    expect(diffBaseRevision(state)).toBe(2);
    expect(diffBaseRevision(withRemote(ackRevision(state, 'r3'), 9))).toBe(3);
    expect(diffBaseRevision(ackRevision(state, 'r5'))).toBeNull();
  });
});

describe('remote-edit notices', () => {
  it('formats one notice line', () => {
    expect(coreNoticeLine({ source_id: 'default', slug: 'prefs', revision: 4 })).toBe(
      'Core page prefs was edited remotely (revision r4). Review: brainstream core diff --source default prefs — accept: brainstream core ack --source default prefs --revision r4',
    );
    expect(coreNoticeLine({ source_id: 'work', slug: 'a/b', revision: 2 })).toBe(
      'Core page work:a/b was edited remotely (revision r2). Review: brainstream core diff --source work a/b — accept: brainstream core ack --source work a/b --revision r2',
    );
  });

  it('shows at most 5 lines, then "… and <k> more"', () => {
    const notices = Array.from({ length: 7 }, (_, i) => ({ source_id: 'default', slug: `p${i}`, revision: 2 }));
    const lines = coreNoticeLines(notices);
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe('… and 2 more (brainstream core status)');
    expect(coreNoticeLines(notices.slice(0, 5))).toHaveLength(5);
    expect(coreNoticeLines([])).toEqual([]);
  });
});
