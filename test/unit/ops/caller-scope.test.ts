// The scoping decisions of the CLI's reports, as pure functions: which sources a remote caller's
// doctor, stats and volunteer stats cover, who is shown remote-write notices, and whose identity
// `call` may name.
import { describe, expect, it } from 'vitest';
import { ownerCaller, remoteCaller } from '../../../src/caller.js';
import { callCaller, decidesAsRemote, doctorSources, seesRemoteWriteNotices, statsSources, volunteerStatsScope } from '../../../src/ops/caller-scope.js';

const EXISTING = ['default', 'team', 'work'];
const owner = ownerCaller('team');
const remote = remoteCaller('default', ['default', 'work', 'gone']);

describe('doctorSources', () => {
  it('is a remote caller’s grant, whatever --source says', () => {
    expect(doctorSources(remote, false)).toEqual(['default', 'work', 'gone']);
    expect(doctorSources(remote, true)).toEqual(['default', 'work', 'gone']);
  });
  it('is every source for the owner, or the one --source names', () => {
    expect(doctorSources(owner, false)).toBeNull();
    expect(doctorSources(owner, true)).toEqual(['team']);
  });
});

describe('statsSources', () => {
  it('keeps the owner’s request as it is (null = every source)', () => {
    expect(statsSources(owner, null, EXISTING)).toBeNull();
    expect(statsSources(owner, ['team'], EXISTING)).toEqual(['team']);
  });
  it('narrows a remote caller to the existing sources it can read, then to its request', () => {
    expect(statsSources(remote, null, EXISTING)).toEqual(['default', 'work']);
    expect(statsSources(remote, ['work'], EXISTING)).toEqual(['work']);
    expect(statsSources(remote, ['team'], EXISTING)).toEqual([]);
  });
});

describe('volunteerStatsScope', () => {
  it('is the owner’s session source, and a remote caller’s readable sources', () => {
    expect(volunteerStatsScope(owner, EXISTING)).toEqual(['team']);
    expect(volunteerStatsScope(remote, EXISTING)).toEqual(['default', 'work']);
  });
});

describe('notices, decisions and identity', () => {
  it('shows remote-write notices to the owner alone', () => {
    expect(seesRemoteWriteNotices(owner)).toBe(true);
    expect(seesRemoteWriteNotices(remote)).toBe(false);
  });
  it('decides a remote caller’s turns as remote traffic', () => {
    expect(decidesAsRemote(remote)).toBe(true);
    expect(decidesAsRemote(owner)).toBe(false);
  });
  it('lets a remote caller of call name its identity (cut at 256 characters); the owner stays the owner', () => {
    expect(callCaller(remote, 'client-7')).toEqual({ ...remote, identity: 'client-7' });
    expect(callCaller(remote, 'x'.repeat(300)).identity).toBe('x'.repeat(256));
    expect(callCaller(remote, undefined)).toBe(remote);
    expect(callCaller(owner, 'client-7')).toBe(owner);
  });
});
