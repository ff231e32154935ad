import { readableSources, type Caller } from '../caller.js';

/**
 * Which sources and notices a caller's reports cover. The CLI's reports (doctor, stats,
 * volunteer stats, page notices, `call`) ask here rather than looking at the caller themselves,
 * so a remote caller's view is decided in one place, beside the operations' access rules.
 */

/** Sources `doctor` checks: a remote caller's grant; the owner's every source, or the one `--source` names. */
export const doctorSources = (caller: Caller, sourceGiven: boolean): string[] | null =>
  caller.kind === 'remote' ? caller.grant : sourceGiven ? [caller.source] : null;

/**
 * Sources `stats` counts: what was asked (`requested`, null = every source) — for a remote
 * caller only the part of it the caller can read of the sources that exist.
 */
export const statsSources = (caller: Caller, requested: string[] | null, existing: readonly string[]): string[] | null =>
  caller.kind === 'remote' ? readableSources(caller, existing).filter((s) => !requested || requested.includes(s)) : requested;

/** Sources `volunteer-context --stats` scores: a remote caller's readable sources; the owner's session source. */
export const volunteerStatsScope = (caller: Caller, existing: readonly string[]): string[] =>
  caller.kind === 'remote' ? readableSources(caller, existing) : [caller.source];

/** Whether the caller is told that a remote caller rewrote a page around parts it could not see: the owner alone. */
export const seesRemoteWriteNotices = (caller: Caller): boolean => caller.kind === 'owner';

/** Whether the caller's turns are decided as remote traffic (private pages are never volunteered). */
export const decidesAsRemote = (caller: Caller): boolean => caller.kind === 'remote';

/** The caller of `call`: a remote caller may name its identity (request replay key, at most 256 characters); the owner is the owner. */
export const callCaller = (caller: Caller, identity: string | undefined): Caller =>
  caller.kind === 'remote' && identity ? { ...caller, identity: identity.slice(0, 256) } : caller;
